import { gridIndex, logGrid, type QuantileGridDelta } from '../../stats/index.js';
import type { QuantileGridColumns } from '../../storage/schema.js';
import { QUANTILE_GRID_SPEC } from '../../vocabulary/index.js';

/**
 * The fixed threshold grid (ms) of the quantile metrics' grid sums, shared by attribution (which keeps
 * the sums) and results (which reads quantiles off them): 0, then 1 ms × 1.01^i up to 24 h
 * (QUANTILE_GRID_SPEC, documented in the vocabulary and docs/statistics.md). Part of the storage format.
 */
export const QUANTILE_GRID: readonly number[] = Object.freeze(
  logGrid(QUANTILE_GRID_SPEC.start, QUANTILE_GRID_SPEC.end, QUANTILE_GRID_SPEC.ratio),
);

/** An item value's position on the grid: the first threshold at or above it (QUANTILE_GRID.length beyond the end). */
export const gridPosition = (value: number): number => gridIndex(QUANTILE_GRID, value);

/**
 * A grid array as stored: JSON `[from, to, v_from, …, v_(to−1)]`, without the leading zeros (every unit's
 * count is 0 below its smallest item) and without the constant tail (every count is constant above the
 * largest item): entries before `from` are 0, entries from `to` on equal v_(to−1). Time to click spans a few
 * hundred of the 1 839 thresholds, so a row stays a few kilobytes.
 */
export function encodeGridArray(values: readonly number[]): string {
  let from = 0;
  while (from < values.length && values[from] === 0) from += 1;
  let to = values.length;
  while (to > from + 1 && values[to - 1] === values[to - 2]) to -= 1;
  if (from === values.length) to = from;
  return JSON.stringify([from, to, ...values.slice(from, to)]);
}

export function decodeGridArray(text: string, k = QUANTILE_GRID.length): number[] {
  const [from, to, ...rest] = JSON.parse(text) as number[];
  const out = new Array<number>(k).fill(0);
  for (let i = 0; i < rest.length && from! + i < k; i += 1) out[from! + i] = rest[i]!;
  const last = rest.length > 0 ? rest[rest.length - 1]! : 0;
  for (let i = to!; i < k; i += 1) out[i] = last;
  return out;
}

/** A stored row's grid sums (arrays decoded to the grid's length). */
export function gridFromRow(
  r: Pick<QuantileGridColumns, 'units' | 'items' | 'items_squared' | 'below' | 'below_squared' | 'below_times_items'>,
): QuantileGridDelta {
  return {
    units: Number(r.units),
    items: Number(r.items),
    itemsSquared: Number(r.items_squared),
    below: decodeGridArray(r.below),
    belowSquared: decodeGridArray(r.below_squared),
    belowTimesItems: decodeGridArray(r.below_times_items),
  };
}
