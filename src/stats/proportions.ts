import { normalCdf } from './distributions.js';

export interface ProportionsZResult {
  readonly z: number | null;
  readonly pValue: number | null;
  readonly reason: string | null;
}

/**
 * Two-sample z-test of proportions (variant − control), two-sided. Pooled variance
 * p̄(1 − p̄)(1/n_A + 1/n_B) under H0, as statsmodels' proportions_ztest does by default; with
 * `pooled: false` the unpooled Wald variance p_A(1−p_A)/n_A + p_B(1−p_B)/n_B is used
 * (statsmodels test_proportions_2indep(method='wald')). The Welch test on `proportionSums`
 * is the analysis the service reports; this is the textbook cross-check.
 */
export function proportionsZTest(
  successesControl: number,
  nControl: number,
  successesVariant: number,
  nVariant: number,
  options: { pooled?: boolean } = {},
): ProportionsZResult {
  if (!(nControl > 0 && nVariant > 0)) return { z: null, pValue: null, reason: 'EMPTY_ARM' };
  const pA = successesControl / nControl;
  const pB = successesVariant / nVariant;
  let variance: number;
  if (options.pooled ?? true) {
    const p = (successesControl + successesVariant) / (nControl + nVariant);
    variance = p * (1 - p) * (1 / nControl + 1 / nVariant);
  } else {
    variance = (pA * (1 - pA)) / nControl + (pB * (1 - pB)) / nVariant;
  }
  if (!(variance > 0)) return { z: null, pValue: null, reason: 'ZERO_VARIANCE' };
  const z = (pB - pA) / Math.sqrt(variance);
  return { z, pValue: Math.min(1, 2 * normalCdf(-Math.abs(z))), reason: null };
}
