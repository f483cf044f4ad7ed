import type { LoggedSearch } from '../types.js';

/**
 * Logged searches as typed arrays, built once per call: every later pass (the point estimate and
 * each bootstrap replicate) reads these instead of the objects. Impressions are stored twice:
 * in search order (`item*`, for the logged lists) and grouped by (query, result) pair (`imp*`), so
 * that a replicate sums a pair's impressions in one sequential sweep whose only random access is
 * the session's bootstrap weight (a small array that stays in cache).
 */
export interface EncodedSearches {
  readonly searches: number;
  readonly sessions: number;
  readonly queries: readonly string[];
  /** Per query: resultId → pair index. */
  readonly pairIndex: readonly Map<string, number>[];
  readonly pairQuery: Int32Array;
  readonly pairDoc: readonly string[];
  readonly searchQuery: Int32Array;
  readonly searchSession: Int32Array;
  /** Items of search s are itemStart[s] .. itemStart[s + 1] − 1, rank order. */
  readonly itemStart: Int32Array;
  readonly itemPair: Int32Array;
  readonly itemClick: Uint8Array;
  readonly itemSat: Uint8Array;
  /** Impressions of pair p are pairStart[p] .. pairStart[p + 1] − 1. */
  readonly pairStart: Int32Array;
  readonly impSession: Int32Array;
  /** 0-based rank. */
  readonly impRank: Uint8Array;
  readonly impClick: Uint8Array;
  readonly impSat: Uint8Array;
  /** The impression's index in item order (to look up per-item values such as a model's prediction). */
  readonly impItem: Int32Array;
}

export const MAX_RANKS = 255;

/**
 * Encodes searches, keeping ranks ≤ maxDepth. A result repeated within one list cuts the list at
 * the repeat. Throws RangeError on ragged arrays.
 */
export function encodeSearches(searches: readonly LoggedSearch[], maxDepth: number): EncodedSearches {
  const depth = Math.min(Math.max(1, Math.floor(maxDepth)), MAX_RANKS);
  const queryIds = new Map<string, number>();
  const queries: string[] = [];
  const pairIndex: Map<string, number>[] = [];
  const pairDoc: string[] = [];
  const pairQueryList: number[] = [];
  const sessionIds = new Map<string, number>();
  const n = searches.length;
  const searchQuery = new Int32Array(n);
  const searchSession = new Int32Array(n);
  const itemStart = new Int32Array(n + 1);
  let total = 0;
  for (const s of searches) total += Math.min(s.resultIds.length, depth);
  let itemPair = new Int32Array(total);
  let itemClick = new Uint8Array(total);
  let itemSat = new Uint8Array(total);
  let items = 0;
  for (let i = 0; i < n; i += 1) {
    const s = searches[i] as LoggedSearch;
    if (s.clicks.length !== s.resultIds.length || s.satisfied.length !== s.resultIds.length) {
      throw new RangeError(`search ${i}: resultIds, clicks and satisfied differ in length`);
    }
    let q = queryIds.get(s.queryHash);
    if (q === undefined) {
      q = queries.length;
      queryIds.set(s.queryHash, q);
      queries.push(s.queryHash);
      pairIndex.push(new Map());
    }
    let session = sessionIds.get(s.sessionId);
    if (session === undefined) {
      session = sessionIds.size;
      sessionIds.set(s.sessionId, session);
    }
    searchQuery[i] = q;
    searchSession[i] = session;
    itemStart[i] = items;
    const docs = pairIndex[q] as Map<string, number>;
    const length = Math.min(s.resultIds.length, depth);
    const first = items;
    for (let r = 0; r < length; r += 1) {
      const doc = s.resultIds[r] as string;
      let p = docs.get(doc);
      if (p === undefined) {
        p = pairDoc.length;
        docs.set(doc, p);
        pairDoc.push(doc);
        pairQueryList.push(q);
      }
      // Ranks must stay contiguous and a pair is shown once per search, so a repeated result
      // (a logging glitch) cuts the list there rather than shifting what follows.
      let repeated = false;
      for (let j = first; j < items; j += 1) if (itemPair[j] === p) repeated = true;
      if (repeated) break;
      itemPair[items] = p;
      itemClick[items] = s.clicks[r] ? 1 : 0;
      itemSat[items] = s.satisfied[r] ? 1 : 0;
      items += 1;
    }
  }
  itemStart[n] = items;
  if (items < total) {
    itemPair = itemPair.slice(0, items);
    itemClick = itemClick.slice(0, items);
    itemSat = itemSat.slice(0, items);
  }
  const pairs = pairDoc.length;
  const pairStart = new Int32Array(pairs + 1);
  for (let i = 0; i < items; i += 1) {
    const p = (itemPair[i] as number) + 1;
    pairStart[p] = (pairStart[p] as number) + 1;
  }
  for (let p = 0; p < pairs; p += 1) pairStart[p + 1] = (pairStart[p + 1] as number) + (pairStart[p] as number);
  const fill = pairStart.slice(0, pairs);
  const impSession = new Int32Array(items);
  const impRank = new Uint8Array(items);
  const impClick = new Uint8Array(items);
  const impSat = new Uint8Array(items);
  const impItem = new Int32Array(items);
  for (let s = 0; s < n; s += 1) {
    const start = itemStart[s] as number;
    const end = itemStart[s + 1] as number;
    for (let i = start; i < end; i += 1) {
      const p = itemPair[i] as number;
      const at = fill[p] as number;
      fill[p] = at + 1;
      impSession[at] = searchSession[s] as number;
      impRank[at] = i - start;
      impClick[at] = itemClick[i] as number;
      impSat[at] = itemSat[i] as number;
      impItem[at] = i;
    }
  }
  return {
    searches: n,
    sessions: sessionIds.size,
    queries,
    pairIndex,
    pairQuery: Int32Array.from(pairQueryList),
    pairDoc,
    searchQuery,
    searchSession,
    itemStart,
    itemPair,
    itemClick,
    itemSat,
    pairStart,
    impSession,
    impRank,
    impClick,
    impSat,
    impItem,
  };
}
