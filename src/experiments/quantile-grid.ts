import { gridIndex, logGrid } from '../stats/index.js';
import { QUANTILE_GRID_SPEC } from '../vocabulary/index.js';

/**
 * The fixed threshold grid (ms) of the quantile metrics' grid sums, shared by attribution (which keeps
 * the sums) and results (which reads quantiles off them): 0, then 1 ms × 1.01^i up to 24 h
 * (QUANTILE_GRID_SPEC, documented in the vocabulary and the README). Part of the storage format.
 */
export const QUANTILE_GRID: readonly number[] = Object.freeze(
  logGrid(QUANTILE_GRID_SPEC.start, QUANTILE_GRID_SPEC.end, QUANTILE_GRID_SPEC.ratio),
);

/** An item value's position on the grid: the first threshold at or above it (QUANTILE_GRID.length beyond the end). */
export const gridPosition = (value: number): number => gridIndex(QUANTILE_GRID, value);

/**
 * A grid array as stored: JSON `[from, v_from, v_from+1, …]` without the leading zeros (every unit's
 * count is 0 below its smallest item, so sums usually start late on the grid).
 */
export function encodeGridArray(values: readonly number[]): string {
  let from = 0;
  while (from < values.length && values[from] === 0) from += 1;
  return JSON.stringify([from, ...values.slice(from)]);
}

export function decodeGridArray(text: string, k = QUANTILE_GRID.length): number[] {
  const [from, ...rest] = JSON.parse(text) as number[];
  const out = new Array<number>(k).fill(0);
  for (let i = 0; i < rest.length && from! + i < k; i += 1) out[from! + i] = rest[i]!;
  return out;
}
