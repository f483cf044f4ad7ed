import type { EncodedLog } from '../sessions/encode.js';

/**
 * Sufficient statistics for models whose per-position likelihood depends only on the
 * pair, the rank (and for UBM the rank of the previous click) and the click: PBM, UBM,
 * CTR, COEC. The EM E-step posterior is identical for every position in a cell, so one
 * iteration costs O(cells) instead of O(sessions × depth) — the trick that makes PBM on
 * a million sessions cheap.
 */
export interface CellTable {
  readonly count: number;
  readonly pair: Int32Array;
  /** rank0, or rank0 * (depth + 1) + prevClickRank when keyed by previous click. */
  readonly code: Int32Array;
  readonly impressions: Float64Array;
  readonly clicks: Float64Array;
}

/**
 * Groups positions by pair with a counting sort (O(positions), no hashing), then merges
 * equal codes within each pair using a small scratch table.
 */
export function aggregateCells(log: EncodedLog, keyByPrevClick: boolean): CellTable {
  const { depth, lengths, pairs, clicks, sessionCount, pairCount } = log;
  const codeCount = keyByPrevClick ? depth * (depth + 1) : depth;

  const start = new Int32Array(pairCount + 1);
  let positions = 0;
  for (let s = 0; s < sessionCount; s += 1) {
    const base = s * depth;
    const length = lengths[s] as number;
    for (let r = 0; r < length; r += 1) {
      const p = pairs[base + r] as number;
      start[p + 1] = (start[p + 1] as number) + 1;
    }
    positions += length;
  }
  for (let p = 0; p < pairCount; p += 1) start[p + 1] = (start[p + 1] as number) + (start[p] as number);

  // Bucket each position's (code, click) under its pair.
  const fill = start.slice(0, pairCount);
  const bucket = new Int32Array(positions);
  for (let s = 0; s < sessionCount; s += 1) {
    const base = s * depth;
    const length = lengths[s] as number;
    let prev = 0;
    for (let r = 0; r < length; r += 1) {
      const p = pairs[base + r] as number;
      const c = clicks[base + r] as number;
      const code = keyByPrevClick ? r * (depth + 1) + prev : r;
      const at = fill[p] as number;
      bucket[at] = (code << 1) | c;
      fill[p] = at + 1;
      if (c === 1) prev = r + 1;
    }
  }

  const capacity = Math.min(positions, pairCount * codeCount);
  const cellPair = new Int32Array(capacity);
  const cellCode = new Int32Array(capacity);
  const cellImpressions = new Float64Array(capacity);
  const cellClicks = new Float64Array(capacity);
  const slot = new Int32Array(codeCount).fill(-1);
  let count = 0;
  for (let p = 0; p < pairCount; p += 1) {
    const from = start[p] as number;
    const to = start[p + 1] as number;
    for (let i = from; i < to; i += 1) {
      const packed = bucket[i] as number;
      const code = packed >> 1;
      let cell = slot[code] as number;
      if (cell < 0) {
        cell = count;
        count += 1;
        slot[code] = cell;
        cellPair[cell] = p;
        cellCode[cell] = code;
      }
      cellImpressions[cell] = (cellImpressions[cell] as number) + 1;
      cellClicks[cell] = (cellClicks[cell] as number) + (packed & 1);
    }
    for (let i = from; i < to; i += 1) slot[(bucket[i] as number) >> 1] = -1;
  }

  return {
    count,
    pair: cellPair.subarray(0, count),
    code: cellCode.subarray(0, count),
    impressions: cellImpressions.subarray(0, count),
    clicks: cellClicks.subarray(0, count),
  };
}
