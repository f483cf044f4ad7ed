import { normalQuantile } from '../distributions/distributions.js';
import { analyzeEffect, type AnalysisOptions, type FrequentistResult } from '../frequentist/frequentist.js';
import { unitsStillNeeded, type PowerSoFarInput, type UnitsStillNeeded } from '../planning/power.js';
import type { EffectEstimate, StatsReason } from '../types.js';

/**
 * Per-item quantiles (median time to click, p90 dwell time) compared between arms, with an interval that
 * accounts for the clustering of items within units (sessions): items of one session are correlated, so
 * treating them as independent would make the interval too narrow.
 *
 * Woodruff (1952) interval with a cluster-robust variance, as in Deng, Knoblich & Lu (2018), "Applying the
 * Delta Method in Metric Analytics", §4 (the approach GrowthBook uses for quantile metrics):
 * F̂(ξ) = Σ_i c_i(ξ) / Σ_i m_i is a ratio of per-unit sums (c_i = items of unit i at or below ξ, m_i = its
 * items), so its variance at ξ̂_q comes from the delta method over units,
 *   σ² = (s²_c − 2F·s_cm + F²·s²_m) / (n·m̄²),
 * and the quantile's interval is [Q(q − zσ), Q(q + zσ)], read off the same empirical quantile function.
 * Its half-width over z is the quantile's standard error; arms are independent, so the difference of
 * quantiles has variance se_A² + se_B² and is tested like any other effect (normal, either scale, fixed or
 * sequential). Quantiles interpolate the empirical CDF linearly (Hyndman & Fan type 4, numpy's
 * 'interpolated_inverted_cdf'), for raw items and for the grid summary alike.
 */

/** z of the Woodruff construction; the standard error it yields hardly depends on it (DKL use 1.96). */
const WOODRUFF_Z = normalQuantile(0.975);

export interface QuantileEstimate {
  readonly q: number;
  /** The per-item quantile of the arm. */
  readonly quantile: number | null;
  /** Its cluster-robust standard error (Woodruff half-width / z). */
  readonly se: number | null;
  /** Standard error of F̂ at the quantile (cluster-robust delta method). */
  readonly cdfSe: number | null;
  readonly units: number;
  readonly items: number;
  readonly reason: StatsReason | null;
}

/**
 * A compact per-arm summary that can be maintained incrementally: a threshold grid g_1 < … < g_K shared
 * by the arms (start it at the smallest possible value, e.g. 0 ms; a log-spaced grid keeps the relative
 * resolution constant) and, over units with at least one item, with c_ik the unit's items ≤ g_k and m_i
 * its items: n, Σm, Σm², and per threshold Σc_k, Σc_k², Σc_k·m. When unit i gets an item of value v,
 * with its old m and c_k: Σm += 1, Σm² += 2m + 1; for g_k ≥ v: Σc_k += 1, Σc_k² += 2c_k + 1,
 * Σc_k·m += c_k + m + 1; for g_k < v: Σc_k·m += c_k (n += 1 on the unit's first item). So the store keeps
 * the arm sums plus each unit's histogram (or its items); quantiles are exact up to the grid's resolution.
 */
export interface QuantileGridSums {
  readonly thresholds: readonly number[];
  readonly units: number;
  readonly items: number;
  readonly itemsSquared: number;
  readonly below: readonly number[];
  readonly belowSquared: readonly number[];
  readonly belowTimesItems: readonly number[];
}

/** First index whose threshold is ≥ value (k when none is): the item's position on the grid. */
export function gridIndex(thresholds: readonly number[], value: number): number {
  let lo = 0;
  let hi = thresholds.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (thresholds[mid]! >= value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Builds the grid summary of one arm from its units' item values (the service maintains the same sums
 * incrementally). A unit's count c_k is a step function of k that changes only at its items' grid
 * positions, so its contributions are added per constant segment through difference arrays: O(items + K).
 */
export function quantileGridSums(units: readonly ArrayLike<number>[], thresholds: readonly number[]): QuantileGridSums {
  const k = thresholds.length;
  const diff = [new Float64Array(k + 1), new Float64Array(k + 1), new Float64Array(k + 1)] as const;
  let n = 0;
  let items = 0;
  let itemsSquared = 0;
  for (const unit of units) {
    const m = unit.length;
    if (m === 0) continue;
    n += 1;
    items += m;
    itemsSquared += m * m;
    const positions = Array.from({ length: m }, (_, j) => gridIndex(thresholds, unit[j]!)).sort((x, y) => x - y);
    for (let j = 0; j < m; j += 1) {
      // On [positions[j], positions[j + 1]) the unit has c = j + 1 items at or below the threshold.
      const from = positions[j]!;
      const to = j + 1 < m ? positions[j + 1]! : k;
      if (from >= to) continue;
      const c = j + 1;
      for (const [array, value] of [
        [diff[0], c],
        [diff[1], c * c],
        [diff[2], c * m],
      ] as const) {
        array[from] = array[from]! + value;
        array[to] = array[to]! - value;
      }
    }
  }
  const prefix = (array: Float64Array): number[] => {
    const out = new Array<number>(k);
    let running = 0;
    for (let t = 0; t < k; t += 1) out[t] = running += array[t]!;
    return out;
  };
  return {
    thresholds: [...thresholds],
    units: n,
    items,
    itemsSquared,
    below: prefix(diff[0]),
    belowSquared: prefix(diff[1]),
    belowTimesItems: prefix(diff[2]),
  };
}

/** Log-spaced thresholds from 0: 0, start, start·ratio, … up to at least `end` (e.g. 1 ms … 10 min, ratio 1.01). */
export function logGrid(start: number, end: number, ratio: number): number[] {
  const grid = [0];
  for (let g = start; grid[grid.length - 1]! < end; g *= ratio) grid.push(g);
  return grid;
}

/**
 * Inverse of the piecewise-linear CDF through (x_k, F_k) (F non-decreasing), clamped to the first point
 * below F_1; null above the last F (the grid does not reach that far).
 */
function inverseCdf(xs: ArrayLike<number>, fs: ArrayLike<number>, p: number): number | null {
  const last = fs.length - 1;
  if (p <= fs[0]!) return xs[0]!;
  if (p > fs[last]! + 1e-12) return null;
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fs[mid]! < p) lo = mid;
    else hi = mid;
  }
  const span = fs[hi]! - fs[lo]!;
  const w = span > 0 ? Math.min(1, (p - fs[lo]!) / span) : 1;
  return xs[lo]! + w * (xs[hi]! - xs[lo]!);
}

function woodruff(
  q: number,
  units: number,
  items: number,
  quantileAt: (p: number) => number | null,
  moments: { c: number; c2: number; cm: number; m2: number },
): QuantileEstimate {
  const base = { q, units, items };
  const quantile = quantileAt(q);
  if (quantile === null) return { ...base, quantile: null, se: null, cdfSe: null, reason: 'INVALID_INPUT' };
  if (units < 2) return { ...base, quantile, se: null, cdfSe: null, reason: 'TOO_FEW_UNITS' };
  const n = units;
  const f = moments.c / items;
  const sCC = moments.c2 - (moments.c * moments.c) / n;
  const sCM = moments.cm - (moments.c * items) / n;
  const sMM = moments.m2 - (items * items) / n;
  const meanM = items / n;
  const variance = Math.max(0, (sCC - 2 * f * sCM + f * f * sMM) / ((n - 1) * n * meanM * meanM));
  const cdfSe = Math.sqrt(variance);
  const lower = quantileAt(Math.max(0, q - WOODRUFF_Z * cdfSe));
  const upper = quantileAt(Math.min(1, q + WOODRUFF_Z * cdfSe));
  if (lower === null || upper === null) return { ...base, quantile, se: null, cdfSe, reason: 'INVALID_INPUT' };
  const se = (upper - lower) / (2 * WOODRUFF_Z);
  return { ...base, quantile, se, cdfSe, reason: se > 0 ? null : 'ZERO_VARIANCE' };
}

const validQ = (q: number): boolean => q > 0 && q < 1;

/** Type 4 quantile of sorted values: the linear interpolation of the ECDF through (x_(i), i/N). */
function sortedType4(sorted: Float64Array, p: number): number {
  const total = sorted.length;
  const h = p * total;
  if (h <= 1) return sorted[0]!;
  if (h >= total) return sorted[total - 1]!;
  const i = Math.floor(h);
  return sorted[i - 1]! + (h - i) * (sorted[i]! - sorted[i - 1]!);
}

/**
 * Quantiles of one arm's items (units = arrays of item values), each with its cluster-robust standard
 * error; the items are sorted once for all levels.
 */
export function quantilesOfItems(units: readonly ArrayLike<number>[], qs: readonly number[]): QuantileEstimate[] {
  let total = 0;
  let unitCount = 0;
  let m2 = 0;
  for (const unit of units) {
    total += unit.length;
    if (unit.length > 0) unitCount += 1;
    m2 += unit.length * unit.length;
  }
  const all = new Float64Array(total);
  let offset = 0;
  for (const unit of units) for (let j = 0; j < unit.length; j += 1) all[offset++] = unit[j]!;
  const finite = all.every(Number.isFinite);
  all.sort();
  const quantileAt = (p: number): number => sortedType4(all, p);
  return qs.map((q) => {
    const base = { q, units: unitCount, items: total, quantile: null, se: null, cdfSe: null };
    if (!validQ(q) || !finite) return { ...base, reason: 'INVALID_INPUT' };
    if (total === 0) return { ...base, reason: 'EMPTY_ARM' };
    const at = quantileAt(q);
    let c = 0;
    let c2 = 0;
    let cm = 0;
    for (const unit of units) {
      let below = 0;
      for (let j = 0; j < unit.length; j += 1) if (unit[j]! <= at) below += 1;
      c += below;
      c2 += below * below;
      cm += below * unit.length;
    }
    return woodruff(q, unitCount, total, quantileAt, { c, c2, cm, m2 });
  });
}

/** The q-quantile of one arm's items, with its cluster-robust standard error. */
export function quantileOfItems(units: readonly ArrayLike<number>[], q: number): QuantileEstimate {
  return quantilesOfItems(units, [q])[0]!;
}

/** The q-quantile of one arm from its grid summary; the moments are interpolated between grid points like the CDF. */
export function quantileOfGrid(sums: QuantileGridSums, q: number): QuantileEstimate {
  const { thresholds, units, items } = sums;
  const base = { q, units, items, quantile: null, se: null, cdfSe: null };
  const k = thresholds.length;
  const shapes = [sums.below, sums.belowSquared, sums.belowTimesItems].every((a) => a.length === k);
  const ascending = thresholds.every((g, i) => i === 0 || g > thresholds[i - 1]!);
  if (!validQ(q) || k === 0 || !shapes || !ascending) return { ...base, reason: 'INVALID_INPUT' };
  if (items === 0) return { ...base, reason: 'EMPTY_ARM' };
  const fs = sums.below.map((b) => b / items);
  const quantileAt = (p: number): number | null => inverseCdf(thresholds, fs, p);
  const at = quantileAt(q);
  if (at === null) return { ...base, reason: 'INVALID_INPUT' };
  // Position of the quantile on the grid, to interpolate the per-threshold moments the same way.
  let hi = thresholds.findIndex((g) => g >= at);
  if (hi < 0) hi = k - 1;
  const lo = Math.max(0, hi - 1);
  const w = hi === lo || thresholds[hi] === thresholds[lo] ? 1 : (at - thresholds[lo]!) / (thresholds[hi]! - thresholds[lo]!);
  const mix = (a: readonly number[]): number => (1 - w) * a[lo]! + w * a[hi]!;
  return woodruff(q, units, items, quantileAt, {
    c: mix(sums.below),
    c2: mix(sums.belowSquared),
    cm: mix(sums.belowTimesItems),
    m2: sums.itemsSquared,
  });
}

/** The difference of two arms' quantiles as an effect estimate (normal: df null; relative to |control quantile|). */
export function quantileEffect(control: QuantileEstimate, variant: QuantileEstimate): EffectEstimate {
  const totalUnits = control.units + variant.units;
  const a = control.quantile;
  const b = variant.quantile;
  const reason = control.reason ?? variant.reason;
  const absoluteLift = a === null || b === null ? null : b - a;
  const absoluteVariance = control.se === null || variant.se === null ? null : control.se ** 2 + variant.se ** 2;
  const relative =
    a !== null && b !== null && a !== 0 && absoluteVariance !== null
      ? { lift: (b - a) / Math.abs(a), variance: variant.se! ** 2 / a ** 2 + (b * b * control.se! ** 2) / a ** 4 }
      : null;
  return {
    controlMean: a,
    variantMean: b,
    absoluteLift,
    absoluteVariance,
    relativeLift: relative?.lift ?? null,
    relativeVariance: relative?.variance ?? null,
    df: null,
    totalUnits,
    controlMeanZ: a !== null && control.se !== null && control.se > 0 ? Math.abs(a) / control.se : null,
    reason: reason ?? (a === 0 ? 'ZERO_CONTROL_MEAN' : null),
  };
}

export interface QuantileComparison extends FrequentistResult {
  readonly control: QuantileEstimate;
  readonly variant: QuantileEstimate;
}

/**
 * Variant against control on a per-item quantile, from raw items (arrays per unit) or grid summaries,
 * with the one-scale analysis of `analyzeEffect` (default relative scale, fixed horizon).
 */
export function compareQuantiles(
  control: readonly ArrayLike<number>[] | QuantileGridSums,
  variant: readonly ArrayLike<number>[] | QuantileGridSums,
  options: AnalysisOptions & { readonly q: number },
): QuantileComparison {
  const estimate = (arm: readonly ArrayLike<number>[] | QuantileGridSums): QuantileEstimate =>
    'thresholds' in arm ? quantileOfGrid(arm, options.q) : quantileOfItems(arm, options.q);
  const a = estimate(control);
  const b = estimate(variant);
  return { ...analyzeEffect(quantileEffect(a, b), options), control: a, variant: b };
}

/**
 * Power so far and "units still needed" for a difference of quantiles, planned as analysed (the correction's
 * Bonferroni bound over `comparisons`, the method, the scale: src/stats planning.ts). Assumption: each arm's
 * cluster-robust Woodruff standard error scales as 1/√units at a fixed per-unit distribution (it is a
 * delta-method error over units, σ² = s²/(n·m̄²)), so an arm's per-unit variance is v = units·se² and the
 * quantile difference is planned like a mean with known standard error: absolute se² = v_A/n_A + v_B/n_B,
 * relative the delta-method error at the planned variant quantile a + mde·|a|. Units are the units with at
 * least one item. No CUPED and no score test for quantiles.
 */
export function quantileUnitsStillNeeded(
  control: QuantileEstimate,
  variant: QuantileEstimate,
  plan: Omit<
    PowerSoFarInput,
    'nControl' | 'nVariant' | 'varianceControl' | 'varianceVariant' | 'baselineMean' | 'proportion' | 'varianceReduction'
  > & {
    readonly power?: number;
  },
): UnitsStillNeeded {
  if (control.quantile === null || control.se === null || variant.se === null) {
    return {
      power: null,
      requiredControl: null,
      requiredVariant: null,
      additionalUnits: null,
      reason: 'each arm needs a quantile with a standard error',
    };
  }
  return unitsStillNeeded({
    ...plan,
    nControl: control.units,
    nVariant: variant.units,
    varianceControl: control.units * control.se ** 2,
    varianceVariant: variant.units * variant.se ** 2,
    baselineMean: control.quantile,
  });
}
