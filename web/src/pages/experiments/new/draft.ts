import type { ErrorDetail } from '../../../api/client';
import type { ExperimentCreate } from '../../../api/types';

type Configuration = ExperimentCreate['configuration'];
export type MetricName = NonNullable<Configuration['targetMetrics']>[number];
export type AnalysisMethod = 'fixed' | 'sequential';
export type ExperimentType = 'ab' | 'interleaving';
/** '' lets the server choose by the number of variants (team-draft for 2, multileave for 3–8). */
export type InterleavingMethod = '' | 'team-draft' | 'team-draft-multileave';

export interface VariantDraft {
  id: string;
  name: string;
  weight: string;
  config: string;
  /** '' = no model: the variant serves the search engine's original order. */
  modelId: string;
  /** '' = the version active when the experiment starts. */
  version: string;
}

/** Everything the form holds, as typed (strings where the user types numbers: the server judges them). */
export interface Draft {
  name: string;
  description: string;
  type: ExperimentType;
  interleavingMethod: InterleavingMethod;
  depth: string;
  variants: VariantDraft[];
  equalSplit: boolean;
  traffic: string;
  metrics: MetricName[];
  startDate: string;
  endDate: string;
  layerId: string;
  layerStart: string;
  layerEnd: string;
  method: AnalysisMethod;
  promote: boolean;
  alias: string;
}

export type UpdateDraft = (patch: Partial<Draft> | ((d: Draft) => Partial<Draft>)) => void;

export const blankVariant = (id: string): VariantDraft => ({ id, name: '', weight: '0.5', config: '{}', modelId: '', version: '' });

export const emptyDraft = (): Draft => ({
  name: '',
  description: '',
  type: 'ab',
  interleavingMethod: '',
  depth: '10',
  variants: [blankVariant('control'), blankVariant('treatment')],
  equalSplit: true,
  traffic: '1',
  metrics: ['ctr'],
  startDate: '',
  endDate: '',
  layerId: '',
  layerStart: '0',
  layerEnd: '1',
  method: 'fixed',
  promote: false,
  alias: 'production',
});

/** datetime-local holds no zone; the form says UTC and sends UTC. */
const toIso = (local: string) => `${local}:00Z`;

/**
 * The request body for POST /experiments, or the problems the form can see itself (a variant config
 * that is not a JSON object). Everything else is the server's to judge: its 400 names the fields.
 */
export function experimentBody(d: Draft): { body: ExperimentCreate; problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const variants = d.variants.map((v, i) => {
    let config: Record<string, unknown> | undefined;
    try {
      const value: unknown = JSON.parse(v.config || '{}');
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
      config = value as Record<string, unknown>;
    } catch {
      problems.push({ path: `/configuration/variants/${i}/config`, message: 'must be a JSON object, e.g. {"layout": "grid"}' });
    }
    return {
      id: v.id,
      ...(v.name ? { name: v.name } : {}),
      ...(d.equalSplit ? {} : { weight: Number(v.weight) }),
      ...(config && Object.keys(config).length > 0 ? { config } : {}),
      ...(v.modelId ? { model: { modelId: v.modelId, ...(v.version ? { version: Number(v.version) } : {}) } } : {}),
    };
  });
  const interleaving = d.type === 'interleaving';
  const body: ExperimentCreate = {
    name: d.name,
    ...(d.description ? { description: d.description } : {}),
    ...(d.startDate ? { startDate: toIso(d.startDate) } : {}),
    ...(d.endDate ? { endDate: toIso(d.endDate) } : {}),
    configuration: {
      type: d.type,
      variants,
      trafficAllocation: Number(d.traffic),
      targetMetrics: d.metrics,
      ...(d.layerId ? { layer: { id: d.layerId, range: [Number(d.layerStart), Number(d.layerEnd)] } } : {}),
      analysis: { method: d.method },
      ...(interleaving
        ? { interleaving: { ...(d.interleavingMethod ? { method: d.interleavingMethod } : {}), depth: Number(d.depth) } }
        : {}),
      ...(d.promote ? { promote: { alias: d.alias.trim() } } : {}),
    },
  };
  return { body, problems };
}
