import type { QuantileGridSums } from './quantiles.js';

/**
 * Incremental maintenance of `QuantileGridSums` (issue 13): a service that folds items into units as they
 * arrive keeps, per unit, the grid positions of its items (`gridIndex`), and per arm the grid sums. When a
 * unit's positions change from `before` to `after` (both sorted, `after` ⊇ `before`), the arm's sums change
 * by the unit's contribution with `after` minus its contribution with `before`, where a unit with m items
 * and c_k items at or below threshold k contributes n = 1 (if m > 0), m, m², and per threshold c_k, c_k²,
 * c_k·m. Every number is an integer, so sums of deltas are exact in doubles (below 2^53).
 */
export interface QuantileGridDelta {
  readonly units: number;
  readonly items: number;
  readonly itemsSquared: number;
  readonly below: number[];
  readonly belowSquared: number[];
  readonly belowTimesItems: number[];
}

/** Zero sums over a grid of k thresholds. */
export function emptyGridDelta(k: number): QuantileGridDelta {
  return {
    units: 0,
    items: 0,
    itemsSquared: 0,
    below: new Array<number>(k).fill(0),
    belowSquared: new Array<number>(k).fill(0),
    belowTimesItems: new Array<number>(k).fill(0),
  };
}

/** Adds `sign` × one unit's contribution (sorted grid positions; position k = beyond the grid) into `into`. */
function addContribution(into: QuantileGridDelta, positions: readonly number[], sign: 1 | -1): QuantileGridDelta {
  const m = positions.length;
  if (m === 0) return into;
  const k = into.below.length;
  let c = 0;
  let j = 0;
  // c_k is 0 below the first position: start there.
  for (let t = Math.min(positions[0]!, k); t < k; t += 1) {
    while (j < m && positions[j]! <= t) {
      c += 1;
      j += 1;
    }
    into.below[t] = into.below[t]! + sign * c;
    into.belowSquared[t] = into.belowSquared[t]! + sign * c * c;
    into.belowTimesItems[t] = into.belowTimesItems[t]! + sign * c * m;
  }
  return { ...into, units: into.units + sign, items: into.items + sign * m, itemsSquared: into.itemsSquared + sign * m * m };
}

/**
 * Adds, in place, the change of one unit (sorted positions `before` → `after`) to every target's sums (e.g.
 * its variant-day and each of its slices): one walk over the grid from the unit's smallest position, no
 * intermediate arrays.
 */
export function addUnitChange(targets: readonly QuantileGridDelta[], before: readonly number[], after: readonly number[]): void {
  if (targets.length === 0) return;
  const k = targets[0]!.below.length;
  const mb = before.length;
  const ma = after.length;
  const start = Math.min(mb ? before[0]! : k, ma ? after[0]! : k);
  let cb = 0;
  let ca = 0;
  let jb = 0;
  let ja = 0;
  for (let t = start; t < k; t += 1) {
    while (jb < mb && before[jb]! <= t) {
      cb += 1;
      jb += 1;
    }
    while (ja < ma && after[ja]! <= t) {
      ca += 1;
      ja += 1;
    }
    const d1 = ca - cb;
    const d2 = ca * ca - cb * cb;
    const d3 = ca * ma - cb * mb;
    if (d1 === 0 && d2 === 0 && d3 === 0) continue;
    for (const g of targets) {
      g.below[t] = g.below[t]! + d1;
      g.belowSquared[t] = g.belowSquared[t]! + d2;
      g.belowTimesItems[t] = g.belowTimesItems[t]! + d3;
    }
  }
  const units = (ma > 0 ? 1 : 0) - (mb > 0 ? 1 : 0);
  for (const g of targets) {
    // The scalar fields are readonly in the public type; the accumulators are owned by the caller.
    const m = g as { units: number; items: number; itemsSquared: number };
    m.units += units;
    m.items += ma - mb;
    m.itemsSquared += ma * ma - mb * mb;
  }
}

/** How an arm's grid sums change when one unit's item positions go from `before` to `after` (both sorted). */
export function quantileGridDelta(before: readonly number[], after: readonly number[], k: number): QuantileGridDelta {
  return addContribution(addContribution(emptyGridDelta(k), after, 1), before, -1);
}

/** Adds `delta` into `into` in place (same grid) and returns it. */
export function addGridDelta(into: QuantileGridDelta, delta: QuantileGridDelta): QuantileGridDelta {
  for (let t = 0; t < into.below.length; t += 1) {
    into.below[t] = into.below[t]! + delta.below[t]!;
    into.belowSquared[t] = into.belowSquared[t]! + delta.belowSquared[t]!;
    into.belowTimesItems[t] = into.belowTimesItems[t]! + delta.belowTimesItems[t]!;
  }
  return {
    ...into,
    units: into.units + delta.units,
    items: into.items + delta.items,
    itemsSquared: into.itemsSquared + delta.itemsSquared,
  };
}

/** Accumulated deltas (e.g. an arm's rows over days) as the summary `quantileOfGrid` reads. */
export function gridSumsOf(thresholds: readonly number[], sums: QuantileGridDelta): QuantileGridSums {
  return {
    thresholds,
    units: sums.units,
    items: sums.items,
    itemsSquared: sums.itemsSquared,
    below: sums.below,
    belowSquared: sums.belowSquared,
    belowTimesItems: sums.belowTimesItems,
  };
}
