import { mulberry32, shuffleInPlace } from '../../random/index.js';
import type { LoggedSearch } from '../types.js';

/**
 * Seeded logs of PBM users with known parameters, for the library's tests and the benchmark:
 * several rankers serve each query (as arms of an A/B test would), which is what intervention
 * harvesting needs, and the truth is kept so every estimate can be checked exactly.
 */
export interface PbmLogOptions {
  seed: number;
  queries: number;
  docsPerQuery: number;
  searches: number;
  /** Rankers serving each query, each a seeded permutation of its documents; each search picks one uniformly. Default 2. */
  rankers?: number;
  /** Results shown per search. Default 10. */
  depth?: number;
  /** Examination per rank, index 0 = rank 1. Default DEFAULT_EXAMINATION. */
  examination?: readonly number[];
  /** Consecutive searches sharing a session id. Default 1. */
  searchesPerSession?: number;
  /** Attractiveness is uniform in this range. Default [0.05, 0.8]. */
  attractivenessRange?: readonly [number, number];
}

export interface PbmLog {
  searches: LoggedSearch[];
  /** queryHash → resultId → P(click | examined). */
  attractiveness: Map<string, Map<string, number>>;
  /** queryHash → resultId → P(satisfied | click). */
  satisfaction: Map<string, Map<string, number>>;
  /** queryHash → the rankers' full rankings. */
  rankings: Map<string, string[][]>;
  examination: readonly number[];
}

export const DEFAULT_EXAMINATION: readonly number[] = [1, 0.8, 0.65, 0.55, 0.47, 0.4, 0.34, 0.29, 0.25, 0.22];

export function simulatePbmLog(options: PbmLogOptions): PbmLog {
  const random = mulberry32(options.seed);
  const depth = options.depth ?? 10;
  const examination = options.examination ?? DEFAULT_EXAMINATION;
  const [low, high] = options.attractivenessRange ?? [0.05, 0.8];
  const rankers = options.rankers ?? 2;
  const perSession = options.searchesPerSession ?? 1;
  const attractiveness = new Map<string, Map<string, number>>();
  const satisfaction = new Map<string, Map<string, number>>();
  const rankings = new Map<string, string[][]>();
  const queryHashes: string[] = [];
  for (let q = 0; q < options.queries; q += 1) {
    const queryHash = `q${q}`;
    queryHashes.push(queryHash);
    const docs = Array.from({ length: options.docsPerQuery }, (_, d) => `q${q}d${d}`);
    attractiveness.set(queryHash, new Map(docs.map((d) => [d, low + (high - low) * random()])));
    satisfaction.set(queryHash, new Map(docs.map((d) => [d, random()])));
    rankings.set(
      queryHash,
      Array.from({ length: rankers }, () => shuffleInPlace([...docs], random)),
    );
  }
  const searches: LoggedSearch[] = [];
  for (let i = 0; i < options.searches; i += 1) {
    const queryHash = queryHashes[Math.floor(random() * queryHashes.length)] as string;
    const lists = rankings.get(queryHash) as string[][];
    const resultIds = (lists[Math.floor(random() * lists.length)] as string[]).slice(0, depth);
    const alpha = attractiveness.get(queryHash) as Map<string, number>;
    const sigma = satisfaction.get(queryHash) as Map<string, number>;
    const clicks = resultIds.map((d, r) => random() < (examination[r] ?? 0) * (alpha.get(d) as number));
    const satisfied = resultIds.map((d, r) => clicks[r] === true && random() < (sigma.get(d) as number));
    searches.push({ queryHash, sessionId: `s${Math.floor(i / perSession)}`, resultIds, clicks, satisfied, context: null });
  }
  return { searches, attractiveness, satisfaction, rankings, examination };
}

/**
 * The exact expected value per search of a ranking policy under PBM users (no simulation): per
 * query the metric of its ranking, weighted by how often the query was searched in `searches`.
 * Metrics as evaluateCandidate defines them: clicks in the top `depth`, 1/rank of the first
 * click, no click, satisfied clicks, clicks in the top k ÷ k.
 */
export function pbmTruth(
  log: PbmLog,
  ranking: ReadonlyMap<string, readonly string[]>,
  depth = 10,
  ctrAt = 10,
): { clicks_per_search: number; mrr: number; abandonment_rate: number; satisfied_clicks: number; ctr: number } {
  const frequency = new Map<string, number>();
  for (const s of log.searches) frequency.set(s.queryHash, (frequency.get(s.queryHash) ?? 0) + 1);
  const total = { clicks_per_search: 0, mrr: 0, abandonment_rate: 0, satisfied_clicks: 0, ctr: 0 };
  let searches = 0;
  for (const [queryHash, n] of frequency) {
    const list = ranking.get(queryHash);
    if (list === undefined) continue;
    searches += n;
    const alpha = log.attractiveness.get(queryHash) as Map<string, number>;
    const sigma = log.satisfaction.get(queryHash) as Map<string, number>;
    let none = 1;
    for (let r = 0; r < Math.max(depth, ctrAt) && r < list.length; r += 1) {
      const c = (log.examination[r] ?? 0) * (alpha.get(list[r] as string) ?? 0);
      if (r < ctrAt) total.ctr += (n * c) / ctrAt;
      if (r >= depth) continue;
      total.clicks_per_search += n * c;
      total.satisfied_clicks += n * c * (sigma.get(list[r] as string) ?? 0);
      total.mrr += (n * none * c) / (r + 1);
      none *= 1 - c;
    }
    total.abandonment_rate += n * none;
  }
  for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] /= Math.max(searches, 1);
  return total;
}
