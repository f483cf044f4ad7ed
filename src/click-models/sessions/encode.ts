import type { SearchSession } from '../types.js';

/**
 * A click log turned into integer indices and typed arrays. Every fitter works on this
 * form: a million sessions of ten results is 10M Int32 pair ids + 10M click bytes
 * (~50 MB), and the hot loops touch no strings.
 */
export interface EncodedLog {
  /** Row width: positions per session (the configured max depth). */
  readonly depth: number;
  readonly sessionCount: number;
  /** Ranks actually shown per session (≤ depth). */
  readonly lengths: Uint8Array;
  /** Pair id per position, row-major `session * depth + rank0`; -1 past the length. */
  readonly pairs: Int32Array;
  /** 1 when the position was clicked. */
  readonly clicks: Uint8Array;
  readonly pairCount: number;
  /** Query index of each pair. */
  readonly pairQuery: Int32Array;
  readonly pairDoc: readonly string[];
  readonly queries: readonly string[];
  readonly impressionsInferred: number;
}

export interface SessionEncoder {
  add(session: SearchSession): void;
  finish(): EncodedLog;
}

export const DEFAULT_MAX_DEPTH = 10;

export function assertDepth(maxDepth: number): void {
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 255) {
    throw new RangeError(`maxDepth must be an integer in [1, 255], got ${maxDepth}`);
  }
}

/**
 * Streaming encoder, so a caller reading sessions from a database page by page never
 * has to hold them all as objects. Sessions with no results are skipped.
 */
export function createSessionEncoder(maxDepth = DEFAULT_MAX_DEPTH, expectedSessions = 1024): SessionEncoder {
  assertDepth(maxDepth);
  const depth = maxDepth;
  let capacity = Math.max(16, expectedSessions);
  let lengths = new Uint8Array(capacity);
  let pairs = new Int32Array(capacity * depth).fill(-1);
  let clicks = new Uint8Array(capacity * depth);
  let sessionCount = 0;
  let impressionsInferred = 0;

  const queryIndex = new Map<string, number>();
  // One doc → pair-id map per query: two small lookups beat hashing a concatenated key.
  const docMaps: Map<string, number>[] = [];
  const queries: string[] = [];
  const pairDoc: string[] = [];
  let pairQuery = new Int32Array(1024);

  const growSessions = (): void => {
    capacity *= 2;
    const l = new Uint8Array(capacity);
    l.set(lengths);
    const p = new Int32Array(capacity * depth).fill(-1);
    p.set(pairs);
    const c = new Uint8Array(capacity * depth);
    c.set(clicks);
    lengths = l;
    pairs = p;
    clicks = c;
  };

  const pairId = (query: number, docs: Map<string, number>, doc: string): number => {
    let id = docs.get(doc);
    if (id === undefined) {
      id = pairDoc.length;
      docs.set(doc, id);
      pairDoc.push(doc);
      if (id >= pairQuery.length) {
        const grown = new Int32Array(pairQuery.length * 2);
        grown.set(pairQuery);
        pairQuery = grown;
      }
      pairQuery[id] = query;
    }
    return id;
  };

  return {
    add(session: SearchSession): void {
      const { resultIds, clicks: sessionClicks } = session;
      if (resultIds.length !== sessionClicks.length) {
        throw new RangeError(`session for query ${session.queryHash}: ${resultIds.length} results but ${sessionClicks.length} click flags`);
      }
      const length = Math.min(resultIds.length, depth);
      if (length === 0) return;
      if (sessionCount === capacity) growSessions();

      let query = queryIndex.get(session.queryHash);
      let docs: Map<string, number>;
      if (query === undefined) {
        query = queries.length;
        queryIndex.set(session.queryHash, query);
        queries.push(session.queryHash);
        docs = new Map();
        docMaps.push(docs);
      } else {
        docs = docMaps[query] as Map<string, number>;
      }

      const base = sessionCount * depth;
      for (let r = 0; r < length; r += 1) {
        pairs[base + r] = pairId(query, docs, resultIds[r] as string);
        clicks[base + r] = sessionClicks[r] === true ? 1 : 0;
      }
      lengths[sessionCount] = length;
      if (session.impressionsInferred === true) impressionsInferred += length;
      sessionCount += 1;
    },

    finish(): EncodedLog {
      return {
        depth,
        sessionCount,
        lengths: lengths.subarray(0, sessionCount),
        pairs: pairs.subarray(0, sessionCount * depth),
        clicks: clicks.subarray(0, sessionCount * depth),
        pairCount: pairDoc.length,
        pairQuery: pairQuery.subarray(0, pairDoc.length),
        pairDoc,
        queries,
        impressionsInferred,
      };
    },
  };
}

export function encodeSessions(sessions: readonly SearchSession[], maxDepth = DEFAULT_MAX_DEPTH): EncodedLog {
  const encoder = createSessionEncoder(maxDepth, sessions.length);
  for (const session of sessions) encoder.add(session);
  return encoder.finish();
}

/** Per-pair impression and click counts, and per-rank ones — every model reports them. */
export interface LogCounts {
  readonly pairImpressions: Float64Array;
  readonly pairClicks: Float64Array;
  readonly rankImpressions: Float64Array;
  readonly rankClicks: Float64Array;
  readonly impressions: number;
  readonly clicks: number;
}

export function countLog(log: EncodedLog): LogCounts {
  const pairImpressions = new Float64Array(log.pairCount);
  const pairClicks = new Float64Array(log.pairCount);
  const rankImpressions = new Float64Array(log.depth);
  const rankClicks = new Float64Array(log.depth);
  let impressions = 0;
  let clicks = 0;
  const { depth, lengths, pairs } = log;
  for (let s = 0; s < log.sessionCount; s += 1) {
    const base = s * depth;
    const length = lengths[s] as number;
    for (let r = 0; r < length; r += 1) {
      const p = pairs[base + r] as number;
      const c = log.clicks[base + r] as number;
      pairImpressions[p] = (pairImpressions[p] as number) + 1;
      pairClicks[p] = (pairClicks[p] as number) + c;
      rankImpressions[r] = (rankImpressions[r] as number) + 1;
      rankClicks[r] = (rankClicks[r] as number) + c;
      impressions += 1;
      clicks += c;
    }
  }
  return { pairImpressions, pairClicks, rankImpressions, rankClicks, impressions, clicks };
}
