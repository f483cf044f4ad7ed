import { normalCdf, normalQuantile, normalSf } from '../distributions/distributions.js';

/**
 * Score (Miettinen–Nurminen) inference for two independent proportions, on the difference
 * p_B − p_A or the ratio p_B/p_A (Miettinen & Nurminen 1985, "Comparative analysis of two rates",
 * Statistics in Medicine 4:213–226).
 *
 * The statistic at a null value uses the proportions re-estimated under that null (the constrained
 * maximum-likelihood estimates), with the N/(N − 1) variance factor; the interval is the set of null
 * values the two-sided test does not reject. Because the interval *is* the inverted test, "the
 * interval excludes 0 (ratio 1)" and "p < α" are the same event, and both stay valid with zero cells
 * (0 of 40 conversions), where the Welch/Wald variance of that arm is 0. Same statistic as statsmodels'
 * `score_test_proportions_2indep` (checked against it, and against a scipy-optimised constrained MLE
 * where statsmodels' closed form fails).
 */

export type ScoreCompare = 'diff' | 'ratio';

export interface TwoProportions {
  readonly successesControl: number;
  readonly nControl: number;
  readonly successesVariant: number;
  readonly nVariant: number;
}

/** Counts no data can produce (non-integers, successes outside [0, n], an arm with fewer than 2 units). */
export function invalidProportions(c: TwoProportions): boolean {
  const { successesControl: x0, nControl: n0, successesVariant: x1, nVariant: n1 } = c;
  const counts = [x0, n0, x1, n1];
  return !counts.every((v) => Number.isInteger(v) && v >= 0) || x0 > n0 || x1 > n1;
}

/**
 * Constrained maximum-likelihood proportions (p_control, p_variant) on the null line
 * p_variant = p_control + delta (`diff`) or p_variant = ratio·p_control (`ratio`). The binomial
 * log-likelihood restricted to the line is concave in p_control, so its derivative is decreasing and
 * bisection finds the unique maximum, at the edge of the feasible interval when the derivative does
 * not change sign there. (The closed-form cubic of Farrington & Manning / statsmodels picks an
 * infeasible root for some nulls when a cell is 0, e.g. 5/40 against 0/40 at delta = −0.3, and then
 * returns NaN; bisection cannot.)
 */
function constrainedMle(c: TwoProportions, compare: ScoreCompare, value: number): [number, number] {
  const { successesControl: x0, nControl: n0, successesVariant: x1, nVariant: n1 } = c;
  if (compare === 'diff' ? value === 0 : value === 1) {
    const pooled = (x0 + x1) / (n0 + n1);
    return [pooled, pooled];
  }
  const slope = compare === 'diff' ? 1 : value;
  const variantOf = (p0: number): number => (compare === 'diff' ? p0 + value : p0 * value);
  const lo = compare === 'diff' ? Math.max(0, -value) : 0;
  const hi = compare === 'diff' ? Math.min(1, 1 - value) : Math.min(1, 1 / value);
  // d/dp0 of x0·ln p0 + (n0−x0)·ln(1−p0) + x1·ln p1 + (n1−x1)·ln(1−p1), p1 = variantOf(p0); zero counts drop their term.
  const derivative = (p0: number): number => {
    const p1 = variantOf(p0);
    let d = 0;
    if (x0 > 0) d += x0 / p0;
    if (n0 - x0 > 0) d -= (n0 - x0) / (1 - p0);
    if (x1 > 0) d += (slope * x1) / p1;
    if (n1 - x1 > 0) d -= (slope * (n1 - x1)) / (1 - p1);
    return d;
  };
  let left = lo;
  let right = hi;
  for (let i = 0; i < 200 && right - left > 1e-17; i += 1) {
    const mid = (left + right) / 2;
    if (mid === left || mid === right) break;
    if (derivative(mid) > 0) left = mid;
    else right = mid;
  }
  const p0 = (left + right) / 2;
  return [p0, Math.min(1, Math.max(0, variantOf(p0)))];
}

/**
 * Score statistic at the null value (`diff`: p_B − p_A = value; `ratio`: p_B/p_A = value), oriented so
 * that it is positive when the data lie above the null. ±Infinity when the constrained variance is 0
 * but the data differ from the null; 0 when both are 0 (no events at all: the data agree with any null).
 */
export function scoreStatistic(c: TwoProportions, compare: ScoreCompare, value: number): number {
  const { successesControl: x0, nControl: n0, successesVariant: x1, nVariant: n1 } = c;
  const n = n0 + n1;
  const pA = x0 / n0;
  const pB = x1 / n1;
  const [q0, q1] = constrainedMle(c, compare, value);
  const weight = compare === 'diff' ? 1 : value * value;
  const variance = ((q1 * (1 - q1)) / n1 + (weight * q0 * (1 - q0)) / n0) * (n / (n - 1));
  const numerator = compare === 'diff' ? pB - pA - value : pB - value * pA;
  if (!(variance > 0)) return numerator === 0 ? 0 : numerator > 0 ? Infinity : -Infinity;
  return numerator / Math.sqrt(variance);
}

/** Two-sided p-value of the score test at `value`. */
export function scorePValue(c: TwoProportions, compare: ScoreCompare, value: number): number {
  return Math.min(1, 2 * normalSf(Math.abs(scoreStatistic(c, compare, value))));
}

/** One-sided p-value: `greater` tests H1 "above value", `less` tests H1 "below value". */
export function scoreOneSidedPValue(c: TwoProportions, compare: ScoreCompare, value: number, side: 'greater' | 'less'): number {
  const z = scoreStatistic(c, compare, value);
  return side === 'greater' ? normalSf(z) : normalCdf(z);
}

/** Root of f (decreasing) = target on [lo, hi] by bisection in the given transform; 60–200 steps. */
function bisect(f: (v: number) => number, target: number, lo: number, hi: number): number {
  for (let i = 0; i < 200 && hi - lo > 1e-15 * Math.max(1, Math.abs(lo) + Math.abs(hi)); i += 1) {
    const mid = (lo + hi) / 2;
    if (f(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

const EDGE = 1e-12;

/**
 * Confidence bounds by inverting the score test: lower = the null value where the statistic falls to
 * +z, upper = where it falls to −z, with z = Φ⁻¹(1 − tail). Two-sided (1 − α) interval: tail α/2.
 * Ratio bounds are searched on log(ratio); a bound at the edge of the parameter space is returned as
 * the edge itself (−1 or 1 for the difference, 0 for the ratio; the upper ratio bound is null, i.e.
 * unbounded, only when the control arm has no event, where the ratio is undefined anyway).
 */
export function scoreBounds(c: TwoProportions, compare: ScoreCompare, tail: number): [number, number] | null {
  const z = normalQuantile(1 - tail);
  const pA = c.successesControl / c.nControl;
  const pB = c.successesVariant / c.nVariant;
  if (compare === 'diff') {
    const f = (d: number): number => scoreStatistic(c, 'diff', d);
    const estimate = pB - pA;
    const lower = estimate <= -1 + EDGE || f(-1 + EDGE) <= z ? -1 : bisect(f, z, -1 + EDGE, estimate);
    const upper = estimate >= 1 - EDGE || f(1 - EDGE) >= -z ? 1 : bisect(f, -z, estimate, 1 - EDGE);
    return [lower, upper];
  }
  if (c.successesControl === 0) return null;
  const g = (logRatio: number): number => scoreStatistic(c, 'ratio', Math.exp(logRatio));
  const span = 60; // e^±60: far beyond any ratio two proportions of doubles can show
  const centre = pB > 0 ? Math.log(pB / pA) : -span;
  const lower = pB === 0 || g(centre - span) <= z ? 0 : Math.exp(bisect(g, z, centre - span, centre));
  const upper = Math.exp(bisect(g, -z, centre, Math.max(centre, 0) + span));
  return [lower, upper];
}
