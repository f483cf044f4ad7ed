import {
  DEFAULT_ALPHA,
  isValidAlpha,
  testedResult,
  untestedResult,
  type FrequentistOptions,
  type FrequentistResult,
} from './frequentist.js';
import { estimateEffect } from './moments.js';
import type { EffectEstimate, RatioSums } from './types.js';

/**
 * Always-valid inference by asymptotic confidence sequences: Waudby-Smith, Arnold, Wu, McAuliffe,
 * Ramdas (2021/2023), "Time-uniform central limit theory and asymptotic confidence sequences",
 * arXiv:2103.06476 (two-sided normal-mixture asymptotic confidence sequence). The parameterisation (ρ chosen so the
 * sequence is tightest at N* units, width scaled by the total units in both arms) follows
 * GrowthBook's gbstats sequential t-test, so our intervals agree with theirs.
 */

export const DEFAULT_SEQUENTIAL_TUNING = 5000;

export interface SequentialOptions extends FrequentistOptions {
  /** N*: total units at which the confidence sequence is tightest. Default 5000. */
  readonly tuningParameter?: number;
}

/**
 * Mixing parameter ρ that makes the boundary (approximately) tightest at n = N* (paper's guidance on
 * choosing ρ; same closed form as gbstats):
 * ρ² = (−2·ln α + ln(−2·ln α + 1)) / N*.
 */
export function sequentialRho(alpha: number, tuningParameter: number): number {
  const l = -2 * Math.log(alpha);
  return Math.sqrt((l + Math.log(l + 1)) / tuningParameter);
}

/**
 * Half-width of the two-sided asymptotic confidence sequence at time n for an estimator with
 * standard error `se` (per-unit standard deviation σ̂ = se·√n):
 * σ̂ · √( 2(nρ² + 1) / (n²ρ²) · ln(√(nρ² + 1) / α) ).
 */
export function sequentialHalfwidth(se: number, n: number, alpha: number, rho: number): number {
  const nr2 = n * rho * rho;
  return se * Math.sqrt(((2 * (nr2 + 1)) / nr2) * Math.log(Math.sqrt(nr2 + 1) / alpha));
}

/**
 * Always-valid p-value: the smallest α whose confidence sequence excludes 0. Solving
 * halfwidth = |lift| for α gives p = √(nρ² + 1) · exp(−z²·nρ² / (2(nρ² + 1))) with z = lift/se,
 * the reciprocal of the mixture e-value (gbstats cites eq. 155 of arXiv v7 for the same quantity).
 */
export function sequentialPValue(z: number, n: number, rho: number): number {
  const nr2 = n * rho * rho;
  return Math.min(1, Math.sqrt(nr2 + 1) * Math.exp((-z * z * nr2) / (2 * (nr2 + 1))));
}

/** Sequential (always-valid) test on an effect estimate; safe to look at after every day. */
export function sequentialEffectTest(effect: EffectEstimate, options: SequentialOptions = {}): FrequentistResult {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const tuning = options.tuningParameter ?? DEFAULT_SEQUENTIAL_TUNING;
  if (!isValidAlpha(alpha) || !(tuning > 0) || !Number.isFinite(tuning)) {
    return untestedResult(effect, 'INVALID_INPUT');
  }
  const { absoluteLift, absoluteVariance } = effect;
  const n = effect.totalUnits;
  if (absoluteLift === null || absoluteVariance === null || effect.df === null || !(absoluteVariance > 0)) {
    return untestedResult(effect, effect.reason ?? 'ZERO_VARIANCE');
  }
  const rho = sequentialRho(alpha, tuning);
  const se = Math.sqrt(absoluteVariance);
  const halfwidth = sequentialHalfwidth(se, n, alpha, rho);
  const pValue = sequentialPValue(absoluteLift / se, n, rho);
  const relativeSe = effect.relativeVariance === null ? null : Math.sqrt(effect.relativeVariance);
  const relativeHalfwidth = relativeSe === null ? null : sequentialHalfwidth(relativeSe, n, alpha, rho);
  return testedResult({ ...effect, absoluteLift }, { pValue, alpha, se, relativeSe, df: null, halfwidth, relativeHalfwidth }, options);
}

/** Sequential test of a variant against control from each arm's sufficient statistics. */
export function sequentialTest(control: RatioSums, variant: RatioSums, options: SequentialOptions = {}): FrequentistResult {
  return sequentialEffectTest(estimateEffect(control, variant), options);
}
