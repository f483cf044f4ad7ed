import { ValidationError } from '../../common/errors.js';
import { SCORE_MAX_RESULTS, type CandidateScoring } from '../ports/candidate-scoring.js';
import type { RankingSource } from './evaluation.schemas.js';
import type { LoggedWindow } from './logged-window.js';

/** What resolving and scoring a candidate needs (learning/ports/candidate-scoring.ts). */
export type RankingPorts = CandidateScoring;

/** A ranking source resolved at creation: a model's version is fixed then, so the evaluation says what it evaluated. */
export type ResolvedSource =
  | { kind: 'model'; modelId: string; version: number }
  | { kind: 'alias'; alias: string; modelId: string | null; version: number | null }
  | { kind: 'rankings'; queries: number; rankings: Record<string, string[]> }
  | { kind: 'logged' };

/** The stored and answered form (uploaded rankings are counted, not echoed). */
export type SourceView = Exclude<ResolvedSource, { kind: 'rankings' }> | { kind: 'rankings'; queries: number };

export function sourceView(s: ResolvedSource): SourceView {
  return s.kind === 'rankings' ? { kind: 'rankings', queries: s.queries } : s;
}

async function resolveModel(
  ports: RankingPorts,
  field: string,
  modelId: string,
  version?: number,
): Promise<{ modelId: string; version: number }> {
  const check = await ports.checkRankable(modelId, version);
  // 400 naming the field, as experiments answer an unknown model variant.
  if (!check.ok) throw ValidationError.field(`${field}/${check.field}`, check.message);
  const resolved = version ?? check.activeVersion;
  if (resolved === null) throw ValidationError.field(`${field}/modelId`, `model ${modelId} has no trained version yet`);
  return { modelId, version: resolved };
}

export async function resolveSource(
  source: RankingSource,
  field: '/candidate' | '/baseline',
  ports: RankingPorts,
): Promise<ResolvedSource> {
  if ('modelId' in source) return { kind: 'model', ...(await resolveModel(ports, field, source.modelId, source.version)) };
  if ('alias' in source) {
    const target = await ports.aliasTarget(source.alias);
    if (target === undefined) throw ValidationError.field(`${field}/alias`, `alias ${source.alias} not found`);
    if (target.modelId === null) return { kind: 'alias', alias: source.alias, modelId: null, version: null };
    if (target.version === null)
      throw ValidationError.field(
        `${field}/alias`,
        `alias ${source.alias} follows model ${target.modelId}, which has no trained version yet`,
      );
    return { kind: 'alias', alias: source.alias, modelId: target.modelId, version: target.version };
  }
  const rankings = Object.fromEntries(Object.entries(source.rankings).filter(([, ids]) => ids.length > 0));
  const queries = Object.keys(rankings).length;
  if (queries === 0) throw ValidationError.field(`${field}/rankings`, 'holds no query with a ranking');
  return { kind: 'rankings', queries, rankings };
}

/**
 * Each logged query's ranking under `source`, or undefined for "what actually served" (the
 * library's default: each search's own list). A model scores the union of the results shown for
 * the query in the window, with the latest client features logged for each; ties keep the logged
 * order. A cleared alias serves the engine's original order: the list logged most often.
 */
export async function rankingsOf(
  source: ResolvedSource,
  window: LoggedWindow,
  ports: RankingPorts,
  onQuery: (done: number, total: number) => Promise<void> = async () => {},
): Promise<Map<string, string[]> | undefined> {
  if (source.kind === 'logged') return undefined;
  if (source.kind === 'rankings') return new Map(Object.entries(source.rankings));
  const out = new Map<string, string[]>();
  if (source.modelId === null) {
    for (const [queryHash, q] of window.queries) out.set(queryHash, q.modalList);
    return out;
  }
  const { modelId, version } = source as { modelId: string; version: number };
  let done = 0;
  for (const [queryHash, q] of window.queries) {
    const results = q.results.slice(0, SCORE_MAX_RESULTS);
    const scores = await ports.scoreVersion(modelId, version, {
      queryHash,
      results: results.map((resultId, i) => {
        const features = q.features.get(resultId);
        return { resultId, position: i + 1, ...(features ? { features } : {}) };
      }),
    });
    const order = results.map((id, i) => ({ id, i, score: scores[i] ?? -Infinity }));
    order.sort((a, b) => b.score - a.score || a.i - b.i);
    out.set(
      queryHash,
      order.map((o) => o.id),
    );
    done += 1;
    if (done % 500 === 0) await onQuery(done, window.queries.size);
  }
  return out;
}
