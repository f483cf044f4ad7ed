/**
 * A metric's stored moment sums over units: Σx, Σy, Σx², Σy², Σxy of the metric's numerator x and
 * denominator y (src/vocabulary/metrics.ts), as the experiment_variant_sums and experiment_slice_sums
 * columns keep them. Attribution adds a unit's change (after − before) to them; results read them back
 * into src/stats RatioSums. Here (not in stats/) so storage's table types can share it.
 */
export interface MomentSums {
  sx: number;
  sy: number;
  sxx: number;
  syy: number;
  sxy: number;
}

/** The keys of MomentSums, for loops that add one set of sums to another. */
export const MOMENT_SUM_KEYS = ['sx', 'sy', 'sxx', 'syy', 'sxy'] as const satisfies readonly (keyof MomentSums)[];

/** Just the moment sums of `v` (a delta or row that carries more fields), for a row to write. */
export function momentSumsOf(v: MomentSums): MomentSums {
  return { sx: v.sx, sy: v.sy, sxx: v.sxx, syy: v.syy, sxy: v.sxy };
}
