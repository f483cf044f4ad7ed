import { normalCdf, normalQuantile } from './distributions.js';

/**
 * Sample size and power for a two-sided test of a difference in means with equal allocation,
 * normal approximation (large-sample Welch): with δ = mde·|baseline| and per-arm standard error
 * se = σ·√(1/n_A + 1/n_B),
 *   power = Φ(δ/se − z_{1−α/2}) + Φ(−δ/se − z_{1−α/2}),
 * the same function statsmodels' NormalIndPower uses. n per arm solves power(n) = target exactly
 * (both tails), starting from the textbook n = 2σ²(z_{1−α/2} + z_{power})²/δ².
 */

export interface SampleSizeInput {
  readonly baselineMean: number;
  /** Per-session standard deviation; omit for a proportion to use √(p(1 − p)). */
  readonly stdDev?: number;
  /** Minimum detectable effect, relative (0.05 = 5%). */
  readonly mde: number;
  readonly alpha?: number;
  readonly power?: number;
  /** Arms including control. Default 2. No multiplicity correction is applied; pass α/(k − 1) for one. */
  readonly variants?: number;
  /** Fraction of all sessions that enter the experiment. Default 1. */
  readonly trafficAllocation?: number;
  readonly dailySessions?: number;
}

export interface SampleSizeResult {
  readonly sessionsPerVariant: number | null;
  /** Unrounded solution, for comparison with reference implementations. */
  readonly exactSessionsPerVariant: number | null;
  readonly totalSessions: number | null;
  readonly days: number | null;
  readonly stdDev: number | null;
  readonly absoluteEffect: number | null;
  readonly reason: string | null;
}

/** Two-sided power of a z-test when the true effect is `effectOverSe` standard errors. */
export function normalPower(effectOverSe: number, alpha = 0.05): number {
  const crit = normalQuantile(1 - alpha / 2);
  return normalCdf(effectOverSe - crit) + normalCdf(-effectOverSe - crit);
}

function solveNormalSampleSize(standardizedEffect: number, alpha: number, power: number): number {
  const zA = normalQuantile(1 - alpha / 2);
  const zB = normalQuantile(power);
  const powerAt = (n: number): number => normalPower(standardizedEffect * Math.sqrt(n / 2), alpha);
  // The one-tail formula ignores the far tail, so its n is an upper bound.
  let hi = (2 * (zA + zB) ** 2) / standardizedEffect ** 2;
  let lo = hi / 2;
  while (powerAt(lo) > power) lo /= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * hi; i += 1) {
    const mid = (lo + hi) / 2;
    if (powerAt(mid) < power) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export function sampleSize(input: SampleSizeInput): SampleSizeResult {
  const alpha = input.alpha ?? 0.05;
  const power = input.power ?? 0.8;
  const variants = input.variants ?? 2;
  const allocation = input.trafficAllocation ?? 1;
  const p = input.baselineMean;
  const fail = (reason: string): SampleSizeResult => ({
    sessionsPerVariant: null,
    exactSessionsPerVariant: null,
    totalSessions: null,
    days: null,
    stdDev: null,
    absoluteEffect: null,
    reason,
  });
  let sd = input.stdDev;
  if (sd === undefined) {
    if (!(p > 0 && p < 1)) return fail('stdDev is required unless the baseline is a proportion in (0, 1)');
    sd = Math.sqrt(p * (1 - p));
  }
  const delta = Math.abs(input.mde * p);
  if (!(alpha > 0 && alpha < 1) || !(power > alpha && power < 1)) return fail('need 0 < alpha < power < 1');
  if (!(sd > 0) || !Number.isFinite(sd)) return fail('stdDev must be positive');
  if (!(delta > 0) || !Number.isFinite(delta)) return fail('mde and baseline must be non-zero');
  if (!Number.isInteger(variants) || variants < 2) return fail('variants must be an integer ≥ 2');
  if (!(allocation > 0 && allocation <= 1)) return fail('trafficAllocation must be in (0, 1]');
  // An effect so small that its square underflows needs more sessions than a double can count.
  const upperBound = (2 * (normalQuantile(1 - alpha / 2) + normalQuantile(power)) ** 2) / (delta / sd) ** 2;
  if (!Number.isFinite(upperBound) || upperBound > 1e15)
    return fail('the effect is too small to detect with any practical number of sessions');
  const exact = solveNormalSampleSize(delta / sd, alpha, power);
  const perVariant = Math.ceil(exact);
  const total = perVariant * variants;
  const daily = input.dailySessions;
  const days = daily !== undefined && daily > 0 ? Math.ceil(total / (daily * allocation)) : null;
  return {
    sessionsPerVariant: perVariant,
    exactSessionsPerVariant: exact,
    totalSessions: total,
    days,
    stdDev: sd,
    absoluteEffect: delta,
    reason: null,
  };
}

export interface PowerSoFarInput {
  readonly nControl: number;
  readonly nVariant: number;
  /** Observed per-unit variance of each arm (for a ratio metric, the delta-method variance). */
  readonly varianceControl: number;
  readonly varianceVariant: number;
  readonly baselineMean: number;
  readonly mde: number;
  readonly alpha?: number;
}

/** Power the experiment has so far against a true relative effect of `mde`, normal approximation. */
export function powerAchieved(input: PowerSoFarInput): { power: number | null; se: number | null } {
  const { nControl, nVariant, varianceControl, varianceVariant } = input;
  if (!(nControl > 0 && nVariant > 0) || !(varianceControl >= 0 && varianceVariant >= 0)) {
    return { power: null, se: null };
  }
  const se = Math.sqrt(varianceControl / nControl + varianceVariant / nVariant);
  const delta = Math.abs(input.mde * input.baselineMean);
  if (!(se > 0) || !Number.isFinite(delta)) return { power: null, se: se > 0 ? se : null };
  return { power: normalPower(delta / se, input.alpha ?? 0.05), se };
}
