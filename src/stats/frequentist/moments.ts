import type { EffectEstimate, RatioSums, StatsReason } from '../types.js';

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

/**
 * Relative tolerance for rounding in sums. Summing n doubles loses at most about n·2⁻⁵³ relative
 * precision (worst case, naive summation; 1e7 units ≈ 1e-9); a centred sum of squares more negative
 * than this fraction of its raw terms cannot come from any data and is reported as `INVALID_INPUT`.
 */
export const SUMS_RELATIVE_TOLERANCE = 1e-8;

/**
 * Σ(a − ā)² from sums, with rounding error treated as zero. Returns null when the sums are impossible
 * (Σa² < (Σa)²/n beyond the rounding tolerance), which no data can produce.
 */
export function centredSquares(n: number, sum: number, sumSquares: number): number | null {
  const meanPart = (sum * sum) / n;
  const centred = sumSquares - meanPart;
  const scale = Math.max(Math.abs(sumSquares), meanPart);
  if (sumSquares < 0 || centred < -SUMS_RELATIVE_TOLERANCE * scale) return null;
  return centred <= SUMS_RELATIVE_TOLERANCE * scale ? 0 : centred;
}

/**
 * Checks that X and Y sums are consistent with some data (both centred sums of squares ≥ 0 and the
 * cross product within Cauchy–Schwarz) and returns the centred second moments, or null.
 */
function centredMoments(sums: RatioSums): { sxx: number; syy: number; sxy: number } | null {
  const { n, sumX, sumY, sumX2, sumY2, sumXY } = sums;
  const sxx = centredSquares(n, sumX, sumX2);
  const syy = centredSquares(n, sumY, sumY2);
  if (sxx === null || syy === null) return null;
  const sxy = sumXY - (sumX * sumY) / n;
  const slack = SUMS_RELATIVE_TOLERANCE * Math.sqrt(Math.abs(sumX2) * Math.abs(sumY2));
  if (Math.abs(sxy) > Math.sqrt(sxx * syy) + slack) return null;
  return { sxx, syy, sxy };
}

/**
 * Per-arm moments. Invalid sums (NaN, negative n, impossible second moments) give `INVALID_INPUT`
 * rather than a clamped zero variance: clamping `meanSums(2, 10, 1)` used to report p = 2e-89.
 */
export function armMoments(sums: RatioSums): ArmMoments {
  const { n, sumX, sumY, sumX2, sumY2, sumXY } = sums;
  if (!allFinite([n, sumX, sumY, sumX2, sumY2, sumXY]) || n < 0) {
    return { n: Number.isFinite(n) ? n : 0, mean: null, variance: null, reason: 'INVALID_INPUT' };
  }
  if (n === 0) return { n, mean: null, variance: null, reason: 'EMPTY_ARM' };
  const centred = centredMoments(sums);
  if (centred === null) return { n, mean: null, variance: null, reason: 'INVALID_INPUT' };
  if (sumY === 0) return { n, mean: null, variance: null, reason: 'ZERO_DENOMINATOR' };
  const meanY = sumY / n;
  const ratio = sumX / sumY;
  if (n < 2) return { n, mean: ratio, variance: null, reason: 'TOO_FEW_UNITS' };
  const { sxx, syy, sxy } = centred;
  const linearised = (sxx - 2 * ratio * sxy + ratio * ratio * syy) / ((n - 1) * meanY * meanY);
  // A quadratic form of a valid covariance matrix is ≥ 0; what is left below the rounding scale is 0.
  const scale = (sxx + ratio * ratio * syy) / ((n - 1) * meanY * meanY);
  const variance = linearised <= SUMS_RELATIVE_TOLERANCE * scale ? 0 : linearised;
  return { n, mean: ratio, variance, reason: null };
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
    controlMeanZ: null,
    reason,
  };
}

/**
 * Combines two arms into lifts and their variances.
 * Relative lift r = D/|Ā| with D = m_B − m_A and Ā the unadjusted control value (|Ā| so that the
 * sign of r is the sign of D, as gbstats does); its delta-method variance is
 * Var(D)/Ā² + D²·Var(Ā)/Ā⁴ − 2D·Cov(D,Ā)/Ā³ with Cov(D,Ā) = −Cov(m_A,Ā) (the |·| cancels in the
 * squared gradient). Without CUPED this is v_B/(n_B·Ā²) + v_A·m_B²/(n_A·Ā⁴), gbstats' form.
 * An arm with zero per-unit variance gets reason `ZERO_VARIANCE` (the estimates stay; no test runs).
 */
export function combineArms(control: ArmEstimate, variant: ArmEstimate): EffectEstimate {
  const totalUnits = control.n + variant.n;
  const absoluteLift = variant.mean - control.mean;
  const absoluteVariance = control.variance / control.n + variant.variance / variant.n;
  const df = welchDf(control.variance, control.n, variant.variance, variant.n);
  const zeroVariance = !(control.variance > 0 && variant.variance > 0);
  const base = control.baseline;
  const controlMeanVariance = control.baselineVariance / control.n;
  const controlMeanZ = controlMeanVariance > 0 ? Math.abs(base) / Math.sqrt(controlMeanVariance) : null;
  if (base === 0) {
    return {
      ...emptyEffect(totalUnits, zeroVariance ? 'ZERO_VARIANCE' : 'ZERO_CONTROL_MEAN'),
      controlMean: control.mean,
      variantMean: variant.mean,
      absoluteLift,
      absoluteVariance,
      df,
      controlMeanZ,
    };
  }
  const relativeLift = absoluteLift / Math.abs(base);
  const covDBase = -control.baselineCovariance / control.n;
  const relativeVariance = Math.max(
    0,
    absoluteVariance / base ** 2 + (absoluteLift ** 2 * controlMeanVariance) / base ** 4 - (2 * absoluteLift * covDBase) / base ** 3,
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
    controlMeanZ,
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
      relativeLift: a.mean === 0 ? null : absoluteLift / Math.abs(a.mean),
    };
  }
  return combineArms(asArmEstimate(a.n, a.mean, a.variance), asArmEstimate(b.n, b.mean, b.variance));
}

export function asArmEstimate(n: number, mean: number, variance: number): ArmEstimate {
  return { n, mean, variance, baseline: mean, baselineVariance: variance, baselineCovariance: variance };
}
