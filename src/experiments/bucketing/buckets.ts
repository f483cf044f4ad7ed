import { hashUnit } from './hash.js';

/** Half-open interval [start, end) of the unit interval. */
export type BucketRange = readonly [start: number, end: number];

/** A slice of a mutual-exclusion layer (GrowthBook calls it a namespace). */
export interface LayerSlice {
  readonly id: string;
  /** Half-open [start, end) with 0 <= start < end <= 1. */
  readonly range: BucketRange;
}

function equalWeights(n: number): number[] {
  if (n <= 0) return [];
  return new Array<number>(n).fill(1 / n);
}

/**
 * Port of GrowthBook's `getBucketRanges`, including its fallbacks, so that
 * ranges (and therefore assignments) agree to the last floating-point bit:
 * - coverage is clamped to [0, 1] (and `undefined` means 1);
 * - weights of the wrong length, or summing outside [0.99, 1.01], are
 *   silently replaced by equal weights.
 * The silent fallback is GrowthBook's behaviour, not a recommendation:
 * `validateExperiment` rejects such weights before they are stored.
 * Variant i covers [cumulative_i, cumulative_i + coverage * weight_i), so
 * lowering coverage shrinks every range from its end and never moves a unit
 * from one variant to another.
 */
export function getBucketRanges(numVariations: number, coverage: number | undefined, weights?: readonly number[]): BucketRange[] {
  let cov = coverage === undefined ? 1 : coverage;
  if (cov < 0) cov = 0;
  else if (cov > 1) cov = 1;

  const equal = equalWeights(numVariations);
  let ws: readonly number[] = weights ?? equal;
  if (ws.length !== numVariations) ws = equal;
  // Same summation order as GrowthBook, so the tolerance test agrees exactly.
  const total = ws.reduce((sum, w) => sum + w, 0);
  if (total < 0.99 || total > 1.01) ws = equal;

  let cumulative = 0;
  return ws.map((w): BucketRange => {
    const start = cumulative;
    cumulative += w;
    return [start, start + cov * w];
  });
}

export function inRange(n: number, range: BucketRange): boolean {
  return n >= range[0] && n < range[1];
}

/** Index of the range containing n, or -1 when n falls in no range (outside the traffic allocation). */
export function chooseVariation(n: number, ranges: readonly BucketRange[]): number {
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i];
    if (range !== undefined && inRange(n, range)) return i;
  }
  return -1;
}

/**
 * GrowthBook's `inNamespace`: the unit is in the slice iff
 * hash(`__${layerId}`, unitId, version 1) lies in [start, end). The hash does
 * not depend on the experiment, so every experiment in a layer sees the same
 * position for a unit, and slices that do not overlap never share a unit.
 * Version 1 has 1,000 buckets: slice boundaries are effectively rounded up to
 * multiples of 0.001.
 */
export function inLayer(unitId: string, layer: LayerSlice): boolean {
  const n = hashUnit(`__${layer.id}`, unitId, 1);
  return n >= layer.range[0] && n < layer.range[1];
}
