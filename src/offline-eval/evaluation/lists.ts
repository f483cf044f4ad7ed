import type { EncodedSearches } from '../log/encode.js';

/**
 * The lists an evaluation scores, as log pairs (−1 for a result the logs never showed for that
 * query: no evidence). The candidate has one list per evaluated query; the baseline has one per
 * query when given as rankings, and otherwise one per distinct logged list (what actually served),
 * each weighted by the searches that saw it.
 */
export interface ListSet {
  count: number;
  start: Int32Array;
  length: Int32Array;
  query: Int32Array;
  pair: Int32Array;
  docs: string[];
}

export interface EvaluationLists {
  candidate: ListSet;
  baseline: ListSet;
  /** Per search: its baseline list (its candidate list is its query). */
  searchBaseline: Int32Array;
  /** Per query: the baseline list the interleaving expectation uses (its own, or its most searched logged list). */
  queryBaseline: Int32Array;
}

class ListBuilder {
  private readonly start: number[] = [];
  private readonly length: number[] = [];
  private readonly query: number[] = [];
  private readonly pair: number[] = [];
  readonly docs: string[] = [];

  add(log: EncodedSearches, q: number, ranking: readonly string[], limit: number): number {
    const seen = new Set<string>();
    this.start.push(this.pair.length);
    this.query.push(q);
    const n = Math.min(limit, ranking.length);
    const index = log.pairIndex[q] as Map<string, number>;
    for (let r = 0; r < n; r += 1) {
      const doc = ranking[r] as string;
      if (seen.has(doc)) throw new RangeError(`ranking for query ${log.queries[q]} lists ${doc} twice`);
      seen.add(doc);
      this.pair.push(index.get(doc) ?? -1);
      this.docs.push(doc);
    }
    this.length.push(n);
    return this.start.length - 1;
  }

  /** A logged list: its pairs are known and distinct. */
  addLogged(log: EncodedSearches, q: number, pairs: Int32Array, from: number, to: number): number {
    this.start.push(this.pair.length);
    this.query.push(q);
    for (let i = from; i < to; i += 1) {
      const p = pairs[i] as number;
      this.pair.push(p);
      this.docs.push(log.pairDoc[p] as string);
    }
    this.length.push(to - from);
    return this.start.length - 1;
  }

  /** Whether list l of query q holds exactly pairs[from..to). */
  holds(l: number, q: number, pairs: Int32Array, from: number, to: number): boolean {
    if (this.query[l] !== q || this.length[l] !== to - from) return false;
    const start = this.start[l] as number;
    for (let r = 0; r < to - from; r += 1) if (this.pair[start + r] !== pairs[from + r]) return false;
    return true;
  }

  build(): ListSet {
    return {
      count: this.start.length,
      start: Int32Array.from(this.start),
      length: Int32Array.from(this.length),
      query: Int32Array.from(this.query),
      pair: Int32Array.from(this.pair),
      docs: this.docs,
    };
  }
}

export function buildLists(
  log: EncodedSearches,
  candidate: ReadonlyMap<string, readonly string[]>,
  baseline: ReadonlyMap<string, readonly string[]> | undefined,
  limit: number,
): EvaluationLists {
  const cand = new ListBuilder();
  for (let q = 0; q < log.queries.length; q += 1) cand.add(log, q, candidate.get(log.queries[q] as string) ?? [], limit);
  const base = new ListBuilder();
  const perQuery = new Int32Array(log.queries.length).fill(-1);
  if (baseline !== undefined) {
    for (let q = 0; q < log.queries.length; q += 1) {
      const ranking = baseline.get(log.queries[q] as string);
      if (ranking !== undefined) perQuery[q] = base.add(log, q, ranking, limit);
    }
  }
  const searchBaseline = new Int32Array(log.searches);
  // Distinct logged lists by a 32-bit hash of (query, pairs), collisions resolved by comparison.
  const logged = new Map<number, number[]>();
  const frequency: number[] = [];
  const queryBaseline = Int32Array.from(perQuery);
  const best = new Int32Array(log.queries.length);
  for (let s = 0; s < log.searches; s += 1) {
    const q = log.searchQuery[s] as number;
    if ((perQuery[q] as number) >= 0) {
      searchBaseline[s] = perQuery[q] as number;
      continue;
    }
    const start = log.itemStart[s] as number;
    const end = Math.min(log.itemStart[s + 1] as number, start + limit);
    let hash = Math.imul(q ^ 0x811c9dc5, 0x01000193);
    for (let i = start; i < end; i += 1) hash = Math.imul(hash ^ (log.itemPair[i] as number), 0x01000193) ^ (hash >>> 15);
    let bucket = logged.get(hash);
    if (bucket === undefined) logged.set(hash, (bucket = []));
    let list = -1;
    for (const l of bucket) if (base.holds(l, q, log.itemPair, start, end)) list = l;
    if (list < 0) {
      list = base.addLogged(log, q, log.itemPair, start, end);
      bucket.push(list);
    }
    searchBaseline[s] = list;
    frequency[list] = (frequency[list] ?? 0) + 1;
    const current = queryBaseline[q] as number;
    if (current < 0 || (frequency[list] as number) > (best[q] as number)) {
      queryBaseline[q] = list;
      best[q] = frequency[list] as number;
    }
  }
  return { candidate: cand.build(), baseline: base.build(), searchBaseline, queryBaseline };
}

/** Per query: results in the candidate's top k with logged evidence, and the top k's size. */
export function coverageCounts(candidate: ListSet, k: number): { covered: Int32Array; shown: Int32Array } {
  const covered = new Int32Array(candidate.count);
  const shown = new Int32Array(candidate.count);
  for (let l = 0; l < candidate.count; l += 1) {
    const n = Math.min(k, candidate.length[l] as number);
    shown[l] = n;
    let hits = 0;
    for (let r = 0; r < n; r += 1) if ((candidate.pair[(candidate.start[l] as number) + r] as number) >= 0) hits += 1;
    covered[l] = hits;
  }
  return { covered, shown };
}
