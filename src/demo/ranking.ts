import type { ApiClient } from './api-client.js';
import type { Doc } from './world/catalogue.js';
import type { PlannedSearch, SessionPlan } from './world/session.js';

/** How many results a search page shows. */
export const PAGE_SIZE = 10;

/** Decides what a session sees: the engine's order, an experiment's arm, or the service's choice. */
export interface Ranking {
  readonly label: string;
  /** Once per session, before its first search (an assignment, for an A/B test). */
  enter(session: SessionPlan): Promise<SessionState>;
}

export interface SessionState {
  /** The arm the session is in, for the progress line ("original", "ranker", "interleaved"…). */
  arm?: string;
  order(search: PlannedSearch): Promise<Doc[]>;
}

const byId = (docs: readonly Doc[]) => new Map(docs.map((d) => [d.resultId, d]));
const candidates = (docs: readonly Doc[]) => docs.map((d, i) => ({ resultId: d.resultId, position: i + 1, features: d.features }));

/** The search engine alone: its own imperfect order. */
export const engineRanking: Ranking = {
  label: 'engine order',
  async enter() {
    return { order: async (search) => firstPage(search) };
  },
};

/**
 * The engine's first page: what a reranker reorders (behavioural features exist only for shown
 * results). Which replica's order serves a search follows from its id, so a rerun shows the same.
 */
export function firstPage(search: PlannedSearch): Doc[] {
  const variants = search.query.engineVariants;
  return variants[replicaOf(search.queryId, variants.length)]!.slice(0, PAGE_SIZE);
}

/** FNV-1a of the search id, modulo the replica count. */
function replicaOf(queryId: string, replicas: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < queryId.length; i += 1) h = Math.imul(h ^ queryId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % replicas;
}

/** Reorders the engine's first page with a model through POST /api/nous/learn/models/{id}/rank. */
export async function rankWithModel(api: ApiClient, modelId: string, search: PlannedSearch): Promise<Doc[]> {
  const docs = firstPage(search);
  const ranked = await api.post<{ results: { resultId: string }[] }>(`/api/nous/learn/models/${encodeURIComponent(modelId)}/rank`, {
    queryHash: search.query.queryHash,
    results: candidates(docs),
  });
  const lookup = byId(docs);
  return ranked.results.slice(0, PAGE_SIZE).map((r) => lookup.get(r.resultId)!);
}

/**
 * An A/B test through the assign endpoint: each session is assigned once (the exposure is
 * recorded then); the variant whose config names a model has its searches reranked by that model.
 */
export function abRanking(api: ApiClient, experimentId: string, modelByVariant: Record<string, string>): Ranking {
  return {
    label: 'A/B via assign + model rank',
    async enter(session) {
      const assignment = await api.post<{ inExperiment: boolean; variantId: string | null }>(
        `/api/nous/ab-testing/experiments/${encodeURIComponent(experimentId)}/assign`,
        { unitId: session.sessionId, attributes: { deviceType: session.deviceType } },
      );
      const variant = assignment.variantId ?? undefined;
      const model = variant ? modelByVariant[variant] : undefined;
      return {
        arm: assignment.inExperiment ? variant : 'outside',
        order: (search) => (model ? rankWithModel(api, model, search) : engineRanking.enter(session).then((s) => s.order(search))),
      };
    },
  };
}

interface NousRankAnswer {
  results: { resultId: string; rank: number }[];
  served: { source: string; experimentId?: string; variantId?: string; method?: string };
}

/**
 * One call per search, POST /api/nous/rank: the service decides (the unit's ranking experiment,
 * an interleaved list, the production alias, or the original order) and records the exposure.
 */
export function nousRanking(api: ApiClient): Ranking {
  return {
    label: 'POST /api/nous/rank',
    async enter(session) {
      const state: SessionState = {
        async order(search) {
          const docs = firstPage(search);
          const answer = await api.post<NousRankAnswer>('/api/nous/rank', {
            unitId: session.sessionId,
            queryId: search.queryId,
            queryHash: search.query.queryHash,
            results: docs.map((d) => ({ resultId: d.resultId, features: d.features })),
            attributes: { deviceType: session.deviceType },
          });
          const served = answer.served;
          state.arm = served.method
            ? `${served.experimentId}:interleaved`
            : served.variantId
              ? `${served.experimentId}:${served.variantId}`
              : served.source;
          const lookup = byId(docs);
          return [...answer.results]
            .sort((a, b) => a.rank - b.rank)
            .slice(0, PAGE_SIZE)
            .map((r) => lookup.get(r.resultId)!)
            .filter((d) => d !== undefined);
        },
      };
      return state;
    },
  };
}
