import type { ApiClient } from './api-client.js';
import { CLICKS_DEBIASING, CLICKS_RANKER_ID, RANKER_ID } from './models.js';
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
  /** The two learned rankers against each other (the others test demo-ranker against the engine's order). */
  headToHead?: boolean;
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

/** The layer the ranking experiments share: slices that do not overlap never share a unit. */
const layer = (range: [number, number]) => ({ id: 'demo-ranking', range });
/** Where the layer is cut: the A/B test below the first, then engine interleaving, then the head-to-head. */
const AB_END = 0.5;
/** The head-to-head takes the top quarter from the engine interleaving (which decided at p < 0.001 with half). */
const HEAD_TO_HEAD_START = 0.75;

/**
 * The learned ranker against the engine's order. With POST /api/nous/rank the A/B test's ranker
 * arm is model-backed, and an interleaving experiment takes the other half of a layer (the
 * service lets one ranking experiment decide a query); without it, an A/B test through assign,
 * the ranker arm reranked through the model's own rank route. With `headToHead` (the clicks
 * ranker has a version) and interleaving, a second interleaving experiment in the top quarter of
 * the layer tests the two learned rankers against each other.
 */
export async function startExperiments(
  api: ApiClient,
  capabilities: Capabilities,
  tag: string,
  options: { headToHead?: boolean } = {},
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
        ...(capabilities.interleaving ? { layer: layer([0, AB_END]) } : {}),
      },
    }),
    name: abName,
    type: 'ab',
  });
  if (capabilities.interleaving) {
    const headToHead = options.headToHead ?? false;
    const name = `${EXPERIMENT_PREFIX}learned ranker vs engine order (interleaving) · ${tag}`;
    experiments.push({
      experimentId: await createAndStart(api, {
        name,
        description,
        configuration: {
          type: 'interleaving',
          interleaving: { method: 'team-draft', depth: 10 },
          variants,
          layer: layer([AB_END, headToHead ? HEAD_TO_HEAD_START : 1]),
          promote,
        },
      }),
      name,
      type: 'interleaving',
    });
    if (headToHead) experiments.push(await startHeadToHead(api, tag));
  }
  return { experiments, ranking: nousRanking(api) };
}

/** The variant ids of the head-to-head: the judgment-based ranker first (the share is its side's). */
export const HEAD_TO_HEAD_VARIANTS = { judgments: 'judgments', clicks: 'clicks' } as const;

/**
 * demo-ranker (click-model judgments) against demo-ranker-clicks (the clicks, debiased), team-draft
 * interleaved: every query of a unit in the slice shows both rankers' results, so a few hundred
 * sessions decide what an A/B test between two similar rankers would need thousands for. No
 * `promote`: what ships is the A/B test's decision.
 */
async function startHeadToHead(api: ApiClient, tag: string): Promise<DemoExperiment> {
  const name = `${EXPERIMENT_PREFIX}ranker from clicks vs ranker from judgments (interleaving) · ${tag}`;
  const experimentId = await createAndStart(api, {
    name,
    description:
      `Started by \`searchloop demo\` (${tag}): the two learned rankers against each other, ${RANKER_ID} (click-model judgments) ` +
      `and ${CLICKS_RANKER_ID} (the clicks, debiasing ${CLICKS_DEBIASING}).`,
    configuration: {
      type: 'interleaving',
      interleaving: { method: 'team-draft', depth: 10 },
      variants: [
        { id: HEAD_TO_HEAD_VARIANTS.judgments, name: `Ranker from judgments (${RANKER_ID})`, weight: 0.5, model: { modelId: RANKER_ID } },
        {
          id: HEAD_TO_HEAD_VARIANTS.clicks,
          name: `Ranker from clicks (${CLICKS_RANKER_ID}, ${CLICKS_DEBIASING})`,
          weight: 0.5,
          model: { modelId: CLICKS_RANKER_ID },
        },
      ],
      layer: layer([HEAD_TO_HEAD_START, 1]),
    },
  });
  return { experimentId, name, type: 'interleaving', headToHead: true };
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
  /** An interleaving experiment's pair, from the first variant's side (results.interleaving.pairs[0]). */
  pair?: InterleavedPair;
  results: unknown;
}

export interface InterleavedPair {
  variantId: string;
  opponentVariantId: string;
  /** Queries with a list; wins + losses of them were decided by a click (ties: no click or equal credit). */
  queries: number;
  wins: number;
  losses: number;
  ties: number;
  /** wins / (wins + losses), with its 95 % interval; null before any decided query. */
  share: number | null;
  shareCi: [number, number] | null;
  pValue: number | null;
  significant: boolean;
  winner: string | null;
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
  interleaving?: { pairs: InterleavedPair[] };
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
  const p = results.interleaving?.pairs[0];
  const pair: InterleavedPair | undefined = p && {
    variantId: p.variantId,
    opponentVariantId: p.opponentVariantId,
    queries: p.queries,
    wins: p.wins,
    losses: p.losses,
    ties: p.ties,
    share: p.share,
    shareCi: p.shareCi,
    pValue: p.pValue,
    significant: p.significant,
    winner: p.winner,
  };
  return { ...experiment, summary: results.summary, trustworthy: results.trustworthy, metrics, ...(pair ? { pair } : {}), results };
}
