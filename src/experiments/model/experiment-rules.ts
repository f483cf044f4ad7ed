import type { ErrorDetail } from '../../common/errors.js';
import { validateCondition } from '../bucketing/index.js';
import type {
  AnalysisSettings,
  ExperimentConfiguration,
  ExperimentType,
  GuardrailSetting,
  InterleavingMethodName,
  VariantModel,
  VariantRecord,
} from './experiment.store.js';
import { metricDirection, type AnalysisMetricName } from '../../vocabulary/index.js';

export const EXPERIMENT_LIMITS = { maxVariants: 20, maxTargetMetrics: 20, variantConfigMaxBytes: 8 * 1024, weightTolerance: 1e-6 } as const;

/** `configuration.analysis` when a setting is not given (and for rows written before it existed). */
export const ANALYSIS_DEFAULTS = {
  scale: 'relative',
  method: 'fixed',
  alpha: 0.05,
  correction: 'holm',
  sequentialTuning: 5000,
  mde: 0.05,
  bayesianPrior: 'improper',
  cuped: true,
  guardrails: [] as GuardrailSetting[],
  dimensions: ['deviceType', 'searchType'] as AnalysisSettings['dimensions'],
} as const;

/** A configuration as a client sends it: weights and names may be missing. */
export interface ConfigurationInput {
  variants: { id: string; name?: string; weight?: number; config?: Record<string, unknown>; model?: VariantModel }[];
  trafficAllocation?: number;
  targetMetrics?: string[];
  seed?: string;
  layer?: { id: string; range: [number, number] } | null;
  conditions?: unknown;
  controlVariantId?: string | null;
  analysis?: Partial<AnalysisSettings>;
  type?: ExperimentType;
  interleaving?: { method?: InterleavingMethodName; depth?: number };
  promote?: { alias: string } | null;
}

/** How many variants each interleaving method takes (experiments/interleaving's TEAM_LIMITS). */
const METHOD_VARIANTS: Record<InterleavingMethodName, [number, number]> = { 'team-draft': [2, 2], 'team-draft-multileave': [3, 8] };

const detail = (path: string, message: string): ErrorDetail => ({ path, message, in: 'body' });

function normaliseVariants(variants: ConfigurationInput['variants'], problems: ErrorDetail[]): VariantRecord[] {
  const seen = new Map<string, number>();
  variants.forEach((v, i) => {
    const first = seen.get(v.id);
    if (first !== undefined) problems.push(detail(`/configuration/variants/${i}/id`, `duplicates the id of variant ${first} ("${v.id}")`));
    else seen.set(v.id, i);
    const size = Buffer.byteLength(JSON.stringify(v.config ?? {}), 'utf8');
    if (size > EXPERIMENT_LIMITS.variantConfigMaxBytes) {
      problems.push(
        detail(`/configuration/variants/${i}/config`, `serializes to ${size} bytes; at most ${EXPERIMENT_LIMITS.variantConfigMaxBytes}`),
      );
    }
  });
  const withWeight = variants.filter((v) => v.weight !== undefined).length;
  let weights: number[];
  if (withWeight === 0) {
    weights = variants.map(() => 1 / variants.length);
  } else if (withWeight < variants.length) {
    const missing = variants.findIndex((v) => v.weight === undefined);
    problems.push(detail(`/configuration/variants/${missing}/weight`, 'is required when any variant has a weight'));
    weights = variants.map((v) => v.weight ?? 0);
  } else {
    weights = variants.map((v) => v.weight!);
    const sum = weights.reduce((a, b) => a + b, 0);
    if (Math.abs(sum - 1) > EXPERIMENT_LIMITS.weightTolerance) {
      problems.push(detail('/configuration/variants', `weights sum to ${Number(sum.toPrecision(12))}; they must sum to 1 (±1e-6)`));
    }
  }
  return variants.map((v, i) => ({
    id: v.id,
    name: v.name ?? v.id,
    weight: weights[i]!,
    config: v.config ?? {},
    ...(v.model ? { model: { modelId: v.model.modelId, ...(v.model.version !== undefined ? { version: v.model.version } : {}) } } : {}),
  }));
}

/**
 * Checks what JSON Schema cannot (unique ids, weights summing to 1, a valid layer slice and
 * condition, a known control) and returns the configuration as it will be stored.
 */
export function normaliseConfiguration(input: ConfigurationInput, problems: ErrorDetail[]): ExperimentConfiguration {
  const variants = normaliseVariants(input.variants, problems);
  const metrics = input.targetMetrics ?? ['ctr'];
  metrics.forEach((m, i) => {
    if (metrics.indexOf(m) !== i) problems.push(detail(`/configuration/targetMetrics/${i}`, `repeats "${m}"`));
  });
  const config: ExperimentConfiguration = {
    variants,
    trafficAllocation: input.trafficAllocation ?? 1,
    targetMetrics: metrics as AnalysisMetricName[],
    analysis: { ...ANALYSIS_DEFAULTS, ...input.analysis },
  };
  checkGuardrails(config.analysis.guardrails, problems);
  if (input.seed !== undefined) config.seed = input.seed;
  if (input.layer) {
    const [start, end] = input.layer.range;
    if (!(start < end)) problems.push(detail('/configuration/layer/range', 'start must be below end'));
    config.layer = input.layer;
  }
  if (input.conditions !== undefined && input.conditions !== null) {
    const checked = validateCondition(input.conditions, '/configuration/conditions');
    if (checked.ok) config.conditions = checked.condition;
    else for (const e of checked.errors) problems.push(detail(e.path, e.message));
  }
  if (input.controlVariantId) {
    if (!variants.some((v) => v.id === input.controlVariantId)) {
      problems.push(detail('/configuration/controlVariantId', `"${input.controlVariantId}" is not a variant id`));
    }
    config.controlVariantId = input.controlVariantId;
  }
  const type = input.type ?? 'ab';
  if (type === 'interleaving') {
    const method = input.interleaving?.method ?? (variants.length === 2 ? 'team-draft' : 'team-draft-multileave');
    const [min, max] = METHOD_VARIANTS[method];
    if (variants.length < min || variants.length > max) {
      const wanted = min === max ? `exactly ${min}` : `${min} to ${max}`;
      problems.push(detail('/configuration/variants', `${method} interleaving needs ${wanted} variants, got ${variants.length}`));
    }
    config.type = 'interleaving';
    config.interleaving = { method, depth: input.interleaving?.depth ?? 10 };
  } else {
    if (input.interleaving) problems.push(detail('/configuration/interleaving', 'only applies when configuration.type is "interleaving"'));
    config.type = 'ab';
  }
  if (input.promote) config.promote = { alias: input.promote.alias };
  return config;
}

/** A ranking experiment decides the order of a query's results: interleaving, or an A/B test with a model-backed variant. */
export function isRankingExperiment(c: ExperimentConfiguration): boolean {
  return c.type === 'interleaving' || c.variants.some((v) => v.model !== undefined);
}

/** What the guardrail schema cannot say: one guardrail per metric, a relative margin below 100 % for higher-is-better. */
function checkGuardrails(guardrails: AnalysisSettings['guardrails'], problems: ErrorDetail[]): void {
  guardrails.forEach((g, i) => {
    const path = `/configuration/analysis/guardrails/${i}`;
    if (guardrails.findIndex((o) => o.metric === g.metric) !== i) problems.push(detail(`${path}/metric`, `repeats "${g.metric}"`));
    const direction = g.direction ?? metricDirection(g.metric);
    if ((g.scale ?? 'relative') === 'relative' && direction === 'higher' && g.margin >= 1) {
      problems.push(detail(`${path}/margin`, 'a relative margin of 1 (100 %) or more tolerates any loss of a higher-is-better metric'));
    }
  });
}

export function checkDates(startDate: number | null, endDate: number | null, problems: ErrorDetail[]): void {
  if (startDate !== null && endDate !== null && endDate <= startDate) problems.push(detail('/endDate', 'must be after startDate'));
}

/** The seed a phase hashes with: the base seed for phase 0, "<seed>:<k>" for phase k. */
export function phaseSeed(experimentId: string, configuration: ExperimentConfiguration, phase: number): string {
  const base = configuration.seed ?? experimentId;
  return phase === 0 ? base : `${base}:${phase}`;
}
