import type { ApiClient } from './api-client.js';
import { RANKER_ID } from './models.js';
import { abRanking, nousRanking, type Ranking } from './ranking.js';

export interface Capabilities {
  /** POST /api/nous/rank: the service ranks and records exposures in one call. */
  nousRank: boolean;
  /** configuration.type "interleaving" is accepted. */
  interleaving: boolean;
}

/** Reads the service's OpenAPI document for the routes the demo can use. */
export async function probeCapabilities(api: ApiClient): Promise<Capabilities> {
  const doc = await api.get<{ paths?: Record<string, unknown> }>('/openapi.json');
  const text = JSON.stringify(doc);
  const nousRank = Boolean(doc.paths?.['/api/nous/rank']);
  return { nousRank, interleaving: nousRank && text.includes('"interleaving"') && text.includes('team-draft') };
}

export interface DemoExperiment {
  experimentId: string;
  name: string;
  type: 'ab' | 'interleaving';
}

export const EXPERIMENT_PREFIX = 'Demo · ';
/**
 * What a better order changes: the first click comes higher (mrr), fewer searches end without a
 * click, more clicks satisfy, more sessions buy. (ctr per impression is not among them: a user
 * who finds the answer first clicks less.)
 */
export const TARGET_METRICS = ['mrr', 'abandonment_rate', 'satisfied_click_rate', 'conversion_rate'];
/** The alias the demo's model-backed experiments move when concluded with ship (configuration.promote). */
export const PRODUCTION_ALIAS = 'production';

async function createAndStart(api: ApiClient, body: Record<string, unknown>): Promise<string> {
  const created = await api.post<{ experimentId: string }>('/api/nous/ab-testing/experiments', body);
  await api.post(`/api/nous/ab-testing/experiments/${created.experimentId}/start`);
  return created.experimentId;
}

/** Stops the demo's experiments from an earlier run, so they do not compete for its traffic. */
export async function stopEarlierDemoExperiments(api: ApiClient): Promise<number> {
  const page = await api.get<{ items: { experimentId: string; name: string; allowedActions: string[] }[] }>(
    '/api/nous/ab-testing/experiments?status=running&limit=200',
  );
  const earlier = page.items.filter((e) => e.name.startsWith(EXPERIMENT_PREFIX) && e.allowedActions.includes('stop'));
  for (const e of earlier) await api.post(`/api/nous/ab-testing/experiments/${e.experimentId}/stop`);
  return earlier.length;
}

/**
 * The learned ranker against the engine's order. With POST /api/nous/rank the A/B test's ranker
 * arm is model-backed, and an interleaving experiment takes the other half of a layer (the
 * service lets one ranking experiment decide a query); without it, an A/B test through assign,
 * the ranker arm reranked through the model's own rank route.
 */
export async function startExperiments(
  api: ApiClient,
  capabilities: Capabilities,
  tag: string,
): Promise<{ experiments: DemoExperiment[]; ranking: Ranking }> {
  const description = `Started by \`searchloop demo\` (${tag}): the engine's own order against the learned ranker ${RANKER_ID}.`;
  const analysis = { method: 'fixed', alpha: 0.05, correction: 'holm' };
  if (!capabilities.nousRank) {
    const name = `${EXPERIMENT_PREFIX}learned ranker vs engine order (A/B) · ${tag}`;
    const experimentId = await createAndStart(api, {
      name,
      description,
      configuration: {
        variants: [
          { id: 'original', name: 'Engine order', weight: 0.5 },
          { id: 'ranker', name: `Learned ranker (${RANKER_ID})`, weight: 0.5, config: { modelId: RANKER_ID } },
        ],
        targetMetrics: TARGET_METRICS,
        analysis,
      },
    });
    return { experiments: [{ experimentId, name, type: 'ab' }], ranking: abRanking(api, experimentId, { ranker: RANKER_ID }) };
  }
  const layer = (range: [number, number]) => ({ id: 'demo-ranking', range });
  const variants = [
    { id: 'original', name: 'Engine order', weight: 0.5 },
    { id: 'ranker', name: `Learned ranker (${RANKER_ID})`, weight: 0.5, model: { modelId: RANKER_ID } },
  ];
  // Concluding either with ship moves `production` to the ranker, as a team shipping it would.
  const promote = { alias: PRODUCTION_ALIAS };
  const experiments: DemoExperiment[] = [];
  const abName = `${EXPERIMENT_PREFIX}learned ranker vs engine order (A/B) · ${tag}`;
  experiments.push({
    experimentId: await createAndStart(api, {
      name: abName,
      description,
      configuration: {
        variants,
        targetMetrics: TARGET_METRICS,
        analysis,
        promote,
        ...(capabilities.interleaving ? { layer: layer([0, 0.5]) } : {}),
      },
    }),
    name: abName,
    type: 'ab',
  });
  if (capabilities.interleaving) {
    const name = `${EXPERIMENT_PREFIX}learned ranker vs engine order (interleaving) · ${tag}`;
    experiments.push({
      experimentId: await createAndStart(api, {
        name,
        description,
        configuration: {
          type: 'interleaving',
          interleaving: { method: 'team-draft', depth: 10 },
          variants,
          layer: layer([0.5, 1]),
          promote,
        },
      }),
      name,
      type: 'interleaving',
    });
  }
  return { experiments, ranking: nousRanking(api) };
}

export interface ExperimentReport extends DemoExperiment {
  summary: string;
  trustworthy?: boolean;
  metrics: {
    metric: string;
    values: Record<string, number | null>;
    relativeLift: number | null;
    pValue: number | null;
    adjustedPValue: number | null;
    significant: boolean;
    /** Significant and in the metric's better direction (false: significantly worse; null: no verdict). */
    improved: boolean | null;
  }[];
  results: unknown;
}

interface AbResults {
  summary: string;
  trustworthy: boolean;
  metrics?: {
    metric: string;
    variants: { variantId: string; value: number | null }[];
    comparisons: {
      relativeLift: number | null;
      pValue: number | null;
      adjustedPValue: number | null;
      significant: boolean;
      improved?: boolean | null;
    }[];
  }[];
}

export async function readResults(api: ApiClient, experiment: DemoExperiment): Promise<ExperimentReport> {
  const results = await api.get<AbResults>(`/api/nous/ab-testing/experiments/${experiment.experimentId}/results`);
  const metrics = (results.metrics ?? []).map((m) => {
    const c = m.comparisons[0];
    return {
      metric: m.metric,
      values: Object.fromEntries(m.variants.map((v) => [v.variantId, v.value])),
      relativeLift: c?.relativeLift ?? null,
      pValue: c?.pValue ?? null,
      adjustedPValue: c?.adjustedPValue ?? null,
      significant: c?.significant ?? false,
      improved: c?.improved ?? null,
    };
  });
  return { ...experiment, summary: results.summary, trustworthy: results.trustworthy, metrics, results };
}
