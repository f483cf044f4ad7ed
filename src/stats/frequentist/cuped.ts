import { fixedHorizonTest, type FrequentistOptions, type FrequentistResult } from './frequentist.js';
import { centredSquares, combineArms, estimateEffect, sampleCovariance } from './moments.js';
import type { CupedSums, EffectEstimate } from '../types.js';

/**
 * CUPED (Deng, Xu, Kohavi & Walker 2013, "Improving the Sensitivity of Online Controlled
 * Experiments by Utilizing Pre-Experiment Data") generalised to ratio metrics by regressing
 * delta-method linearisations on each other (Deng, Knoblich & Lu 2018, section 3.3; the same
 * construction as GrowthBook's RegressionAdjustedRatioStatistic).
 *
 * Per unit i of arm k, with metric R = ΣX/ΣY and covariate Rc = ΣC/ΣD:
 *   ℓ_i = (X_i − R·Y_i)/Ȳ,   ℓc_i = (C_i − Rc·D_i)/D̄.
 * θ is pooled across arms: the within-arm OLS slope of ℓ on ℓc (a regression with arm fixed effects),
 *   θ = Σ_k (n_k − 1)·Cov_k(ℓ, ℓc) / Σ_k (n_k − 1)·Var_k(ℓc).
 * Adjusted arm value R̃_k = R_k − θ·(Rc_k − Rc_pooled); per-unit variance
 *   Var(ℓ) + θ²·Var(ℓc) − 2θ·Cov(ℓ, ℓc).
 * Relative lift is taken against the unadjusted control value (as gbstats does).
 */

export interface CupedEffect extends EffectEstimate {
  /** Pooled regression coefficient; null when no adjustment could be made. */
  readonly theta: number | null;
  /** 1 − Var(adjusted lift)/Var(unadjusted lift): the fraction of variance removed. */
  readonly varianceReduction: number | null;
  readonly unadjusted: EffectEstimate;
}

export interface CupedResult extends FrequentistResult {
  readonly theta: number | null;
  readonly varianceReduction: number | null;
}

interface LinearisedArm {
  readonly n: number;
  readonly ratio: number;
  readonly covariateRatio: number;
  readonly varL: number;
  readonly varLc: number;
  readonly covLLc: number;
}

function linearise(s: CupedSums): LinearisedArm | 'invalid' | null {
  const { n, sumX, sumY, sumC } = s;
  const sumD = s.sumD ?? n;
  const sumD2 = s.sumD2 ?? n;
  const sumXD = s.sumXD ?? sumX;
  const sumYD = s.sumYD ?? sumY;
  const sumCD = s.sumCD ?? sumC;
  const fields = [sumC, s.sumC2, s.sumXC, s.sumYC, sumD, sumD2, sumXD, sumYD, sumCD];
  if (!fields.every((v) => Number.isFinite(v))) return 'invalid';
  if (sumD === 0 || sumY === 0 || n < 2) return null;
  // The covariate's sums must be producible by data too (see armMoments for the metric's own).
  if (centredSquares(n, sumC, s.sumC2) === null || centredSquares(n, sumD, sumD2) === null) return 'invalid';
  const meanY = sumY / n;
  const meanD = sumD / n;
  const r = sumX / sumY;
  const rc = sumC / sumD;
  const cov = (a: number, b: number, ab: number): number => sampleCovariance(n, a, b, ab);
  const varL = (cov(sumX, sumX, s.sumX2) - 2 * r * cov(sumX, sumY, s.sumXY) + r * r * cov(sumY, sumY, s.sumY2)) / (meanY * meanY);
  const varLc = (cov(sumC, sumC, s.sumC2) - 2 * rc * cov(sumC, sumD, sumCD) + rc * rc * cov(sumD, sumD, sumD2)) / (meanD * meanD);
  const covLLc =
    (cov(sumX, sumC, s.sumXC) - rc * cov(sumX, sumD, sumXD) - r * cov(sumY, sumC, s.sumYC) + r * rc * cov(sumY, sumD, sumYD)) /
    (meanY * meanD);
  return { n, ratio: r, covariateRatio: rc, varL: Math.max(0, varL), varLc: Math.max(0, varLc), covLLc };
}

/** CUPED-adjusted effect; falls back to the unadjusted effect (theta null) when it cannot adjust. */
export function estimateCupedEffect(control: CupedSums, variant: CupedSums): CupedEffect {
  const unadjusted = estimateEffect(control, variant);
  const a = linearise(control);
  const b = linearise(variant);
  if (a === 'invalid' || b === 'invalid') {
    const invalid: EffectEstimate = { ...unadjusted, reason: 'INVALID_INPUT' };
    return { ...invalid, theta: null, varianceReduction: null, unadjusted: invalid };
  }
  // A zero-variance arm (e.g. no conversions yet) stays untested: covariate noise would not fix it.
  if (unadjusted.absoluteVariance === null || unadjusted.reason === 'ZERO_VARIANCE' || a === null || b === null) {
    return { ...unadjusted, theta: null, varianceReduction: null, unadjusted };
  }
  const pooledVarLc = (a.n - 1) * a.varLc + (b.n - 1) * b.varLc;
  // A constant covariate explains nothing: θ = 0 leaves the estimate unadjusted.
  const theta = pooledVarLc > 0 ? ((a.n - 1) * a.covLLc + (b.n - 1) * b.covLLc) / pooledVarLc : 0;
  const sumDOf = (s: CupedSums): number => s.sumD ?? s.n;
  const pooledRc = (control.sumC + variant.sumC) / (sumDOf(control) + sumDOf(variant));
  const adjust = (arm: LinearisedArm) => {
    const variance = Math.max(0, arm.varL + theta * theta * arm.varLc - 2 * theta * arm.covLLc);
    return {
      n: arm.n,
      mean: arm.ratio - theta * (arm.covariateRatio - pooledRc),
      variance,
      baseline: arm.ratio,
      baselineVariance: arm.varL,
      baselineCovariance: arm.varL - theta * arm.covLLc,
    };
  };
  const adjusted = combineArms(adjust(a), adjust(b));
  const before = unadjusted.absoluteVariance;
  const after = adjusted.absoluteVariance;
  const varianceReduction = before > 0 && after !== null ? 1 - after / before : null;
  return { ...adjusted, theta, varianceReduction, unadjusted };
}

/** Fixed-horizon Welch test on the CUPED-adjusted effect (see `fixedHorizonTest`; scale default 'absolute'). */
export function cupedTest(control: CupedSums, variant: CupedSums, options: FrequentistOptions = {}): CupedResult {
  const effect = estimateCupedEffect(control, variant);
  return { ...fixedHorizonTest(effect, options), theta: effect.theta, varianceReduction: effect.varianceReduction };
}
