import type { EffectEstimate, RatioSums, StatsReason } from './types.js';

/** Per-arm moments of a ratio metric, derived from its sufficient statistics. */
export interface ArmMoments {
  readonly n: number;
  /** The metric value X̄/Ȳ (null if the arm is empty or Ȳ = 0). */
  readonly mean: number | null;
  /**
   * Per-unit variance of the delta-method linearisation (X − R·Y)/Ȳ, sample (n − 1) divisor:
   * (s²_X − 2R·s_XY + R²·s²_Y)/Ȳ². The variance of the arm's ratio is this divided by n
   * (Deng, Knoblich & Lu 2018, "Applying the Delta Method in Metric Analytics", eq. 4).
   * For Y ≡ 1 it is the ordinary sample variance of X. Null when n < 2 or the mean is null.
   */
  readonly variance: number | null;
  readonly reason: StatsReason | null;
}

/** Sufficient statistics of a per-session mean: Y = 1 per unit. */
export function meanSums(n: number, sum: number, sumSquares: number): RatioSums {
  return { n, sumX: sum, sumY: n, sumX2: sumSquares, sumY2: n, sumXY: sum };
}

/** Sufficient statistics of a proportion of sessions (X ∈ {0,1}, so ΣX² = ΣX). */
export function proportionSums(successes: number, n: number): RatioSums {
  return meanSums(n, successes, successes);
}

/** Sample covariance from sums, n − 1 divisor. */
export function sampleCovariance(n: number, sumA: number, sumB: number, sumAB: number): number {
  return (sumAB - (sumA * sumB) / n) / (n - 1);
}

function allFinite(values: readonly number[]): boolean {
  return values.every((v) => Number.isFinite(v));
}

export function armMoments(sums: RatioSums): ArmMoments {
  const { n, sumX, sumY, sumX2, sumY2, sumXY } = sums;
  if (!allFinite([n, sumX, sumY, sumX2, sumY2, sumXY]) || n < 0) {
    return { n: Number.isFinite(n) ? n : 0, mean: null, variance: null, reason: 'INVALID_INPUT' };
  }
  if (n === 0) return { n, mean: null, variance: null, reason: 'EMPTY_ARM' };
  if (sumY === 0) return { n, mean: null, variance: null, reason: 'ZERO_DENOMINATOR' };
  const meanY = sumY / n;
  const ratio = sumX / sumY;
  if (n < 2) return { n, mean: ratio, variance: null, reason: 'TOO_FEW_UNITS' };
  const varX = sampleCovariance(n, sumX, sumX, sumX2);
  const varY = sampleCovariance(n, sumY, sumY, sumY2);
  const covXY = sampleCovariance(n, sumX, sumY, sumXY);
  const linearised = (varX - 2 * ratio * covXY + ratio * ratio * varY) / (meanY * meanY);
  // Rounding in the sums can leave a true zero variance slightly negative.
  return { n, mean: ratio, variance: Math.max(0, linearised), reason: null };
}

/** Welch–Satterthwaite degrees of freedom (Welch 1947) from per-unit variances and counts. */
export function welchDf(varA: number, nA: number, varB: number, nB: number): number | null {
  const a = varA / nA;
  const b = varB / nB;
  const denominator = (a * a) / (nA - 1) + (b * b) / (nB - 1);
  if (!(denominator > 0) || nA < 2 || nB < 2) return null;
  return ((a + b) * (a + b)) / denominator;
}

/**
 * One arm as it enters a comparison. `mean`/`variance` may be CUPED-adjusted; `baseline` is the
 * unadjusted metric value used as the denominator of relative lift, with its per-unit variance and
 * its per-unit covariance with the adjusted linearisation (both equal `variance` when unadjusted).
 */
export interface ArmEstimate {
  readonly n: number;
  readonly mean: number;
  readonly variance: number;
  readonly baseline: number;
  readonly baselineVariance: number;
  readonly baselineCovariance: number;
}

function emptyEffect(totalUnits: number, reason: StatsReason): EffectEstimate {
  return {
    controlMean: null,
    variantMean: null,
    absoluteLift: null,
    absoluteVariance: null,
    relativeLift: null,
    relativeVariance: null,
    df: null,
    totalUnits,
    reason,
  };
}

/**
 * Combines two arms into lifts and their variances.
 * Relative lift r = D/Ā with D = m_B − m_A and Ā the unadjusted control value; its delta-method
 * variance is Var(D)/Ā² + D²·Var(Ā)/Ā⁴ − 2D·Cov(D,Ā)/Ā³ with Cov(D,Ā) = −Cov(m_A,Ā). Without
 * CUPED this reduces to v_B/(n_B·Ā²) + v_A·m_B²/(n_A·Ā⁴), the form GrowthBook's gbstats uses.
 */
export function combineArms(control: ArmEstimate, variant: ArmEstimate): EffectEstimate {
  const totalUnits = control.n + variant.n;
  const absoluteLift = variant.mean - control.mean;
  const absoluteVariance = control.variance / control.n + variant.variance / variant.n;
  const df = welchDf(control.variance, control.n, variant.variance, variant.n);
  const zeroVariance = !(absoluteVariance > 0);
  const base = control.baseline;
  if (base === 0) {
    return {
      ...emptyEffect(totalUnits, zeroVariance ? 'ZERO_VARIANCE' : 'ZERO_CONTROL_MEAN'),
      controlMean: control.mean,
      variantMean: variant.mean,
      absoluteLift,
      absoluteVariance,
      df,
    };
  }
  const relativeLift = absoluteLift / base;
  const baseVar = control.baselineVariance / control.n;
  const covDBase = -control.baselineCovariance / control.n;
  const relativeVariance = Math.max(
    0,
    absoluteVariance / base ** 2 + (absoluteLift ** 2 * baseVar) / base ** 4 - (2 * absoluteLift * covDBase) / base ** 3,
  );
  return {
    controlMean: control.mean,
    variantMean: variant.mean,
    absoluteLift,
    absoluteVariance,
    relativeLift,
    relativeVariance,
    df,
    totalUnits,
    reason: zeroVariance ? 'ZERO_VARIANCE' : null,
  };
}

const REASON_PRIORITY: readonly StatsReason[] = ['INVALID_INPUT', 'EMPTY_ARM', 'ZERO_DENOMINATOR', 'TOO_FEW_UNITS'];

/** Picks the most fundamental of two arms' reasons, so the caller sees the root cause. */
export function worstReason(a: StatsReason | null, b: StatsReason | null): StatsReason | null {
  for (const reason of REASON_PRIORITY) if (a === reason || b === reason) return reason;
  return a ?? b;
}

/** Unadjusted variant-vs-control effect of a ratio (or mean, or proportion) metric. */
export function estimateEffect(control: RatioSums, variant: RatioSums): EffectEstimate {
  const a = armMoments(control);
  const b = armMoments(variant);
  const totalUnits = a.n + b.n;
  if (a.mean === null || b.mean === null || a.variance === null || b.variance === null) {
    const reason = worstReason(a.reason, b.reason) ?? 'INVALID_INPUT';
    // With one unit the point estimates still exist; only the variance does not.
    if (a.mean === null || b.mean === null) return emptyEffect(totalUnits, reason);
    const absoluteLift = b.mean - a.mean;
    return {
      ...emptyEffect(totalUnits, reason),
      controlMean: a.mean,
      variantMean: b.mean,
      absoluteLift,
      relativeLift: a.mean === 0 ? null : absoluteLift / a.mean,
    };
  }
  return combineArms(asArmEstimate(a.n, a.mean, a.variance), asArmEstimate(b.n, b.mean, b.variance));
}

export function asArmEstimate(n: number, mean: number, variance: number): ArmEstimate {
  return { n, mean, variance, baseline: mean, baselineVariance: variance, baselineCovariance: variance };
}
