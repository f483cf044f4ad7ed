import { DEFAULT_SEQUENTIAL_TUNING, sequentialHalfwidth, sequentialRho } from '../sequential/confidence-sequence.js';
import { normalCdf, normalQuantile } from '../distributions/distributions.js';
import type { Correction } from '../frequentist/multiple-testing.js';
import type { Scale, TestMethod } from '../types.js';

/**
 * Power of one variant-against-control comparison under the analysis the experiment will run:
 * - Multiple testing: the results apply Holm (or Benjamini–Hochberg) across target metrics × treatment
 *   variants. Holm's first step is Bonferroni and every later step is easier, so a comparison planned
 *   at α/m (m = family size) has at least the planned power under Holm (and under BH, which rejects
 *   whatever Holm rejects): we plan with the Bonferroni bound α/m, which is exact for Bonferroni and
 *   conservative for Holm and BH.
 * - Method: fixed horizon, a z-test at z_{1−α/(2m)}; sequential, the confidence sequence's half-width
 *   at the planned total units N = n_A + n_B, with ρ tuned at the nominal α as the analysis tunes it and
 *   the level α/m (a Bonferroni-adjusted p-value below α is the sequence at α/m excluding 0). The
 *   sequential plan is for the last look; peeking earlier can only add rejections.
 * - Scale and variance: `se` is the lift's standard error on the analysed scale.
 * Power = Φ((δ − c·σ₀)/σ₁) + Φ((−δ − c·σ₀)/σ₁): σ₀ the standard error under "no difference" and σ₁
 * under the effect (equal for Welch-type tests; pooled vs unpooled for the score test on proportions,
 * statsmodels' power_proportions_2indep).
 */

export interface PlanAnalysis {
  /** Nominal two-sided level of the analysis; default 0.05. */
  readonly alpha?: number;
  /** Correction the results apply; 'none' plans at α. Default 'none'. */
  readonly correction?: Correction;
  /** Family size the correction runs over: target metrics × treatment variants. Default 1. */
  readonly comparisons?: number;
  readonly method?: TestMethod;
  readonly tuningParameter?: number;
}

export interface ComparisonDesign {
  /** Effect to detect, on the analysed scale (relative: mde; absolute: mde·|baseline|). */
  readonly effect: number;
  /** Standard errors of the lift at (nControl, nVariant) = (1, 1)·(units): se(n) = √(v/n) for v below. */
  readonly nullVariance: (nControl: number, nVariant: number) => number;
  readonly alternativeVariance: (nControl: number, nVariant: number) => number;
}

/** Per-comparison level and the critical value (in standard errors) at total units n. */
export function plannedCritical(analysis: PlanAnalysis, totalUnits: number): { level: number; critical: number } {
  const alpha = analysis.alpha ?? 0.05;
  const m = (analysis.correction ?? 'none') === 'none' ? 1 : Math.max(1, analysis.comparisons ?? 1);
  const level = alpha / m;
  if ((analysis.method ?? 'fixed') === 'sequential') {
    const rho = sequentialRho(alpha, analysis.tuningParameter ?? DEFAULT_SEQUENTIAL_TUNING);
    return { level, critical: sequentialHalfwidth(1, totalUnits, level, rho) };
  }
  return { level, critical: normalQuantile(1 - level / 2) };
}

/** Power of the planned analysis with nControl and nVariant units. */
export function comparisonPower(design: ComparisonDesign, analysis: PlanAnalysis, nControl: number, nVariant: number): number {
  const s0 = Math.sqrt(design.nullVariance(nControl, nVariant));
  const s1 = Math.sqrt(design.alternativeVariance(nControl, nVariant));
  const { critical } = plannedCritical(analysis, nControl + nVariant);
  const d = Math.abs(design.effect);
  return normalCdf((d - critical * s0) / s1) + normalCdf((-d - critical * s0) / s1);
}

/**
 * Smallest scale t > 0 with power(t·nControl, t·nVariant) ≥ target (allocation kept), by bisection on
 * log t; null when even 10¹⁵ units per arm do not reach it.
 */
export function solveScale(
  design: ComparisonDesign,
  analysis: PlanAnalysis,
  target: number,
  nControl: number,
  nVariant: number,
): number | null {
  const power = (t: number): number => comparisonPower(design, analysis, t * nControl, t * nVariant);
  let hi = 1;
  while (power(hi) < target) {
    hi *= 4;
    if (hi * Math.max(nControl, nVariant) > 1e15) return null;
  }
  let lo = hi / 4;
  while (lo * Math.min(nControl, nVariant) > 1e-6 && power(lo) >= target) lo /= 4;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * hi; i += 1) {
    const mid = (lo + hi) / 2;
    if (power(mid) < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The comparison's variances on the analysed scale. Proportions (score test): σ₀² from the pooled
 * proportion, σ₁² from p_A(1 − p_A) and p_B(1 − p_B) — the test statistic of "no difference" is the
 * same on the difference and the ratio, so both scales share this power (fixed horizon). Otherwise
 * (means, and proportions under the confidence sequence, which uses the unpooled delta-method error):
 * absolute se² = v_A/n_A + v_B/n_B; relative se² = v_B/(n_B·μ_A²) + v_A·μ_B²/(n_A·μ_A⁴).
 */
export function designFor(input: {
  readonly scale: Scale;
  readonly method: TestMethod;
  readonly baseline: number;
  readonly mde: number;
  readonly varianceControl: number;
  readonly varianceVariant: number;
  readonly proportion: boolean;
}): ComparisonDesign {
  const { baseline: a, mde, varianceControl: vA, varianceVariant: vB } = input;
  const b = a + mde * Math.abs(a);
  if (input.proportion && input.method === 'fixed') {
    const diff = b - a;
    const effect = input.scale === 'absolute' ? diff : mde;
    // Work on the difference and rescale to the reported scale: relative = difference/|p_A|.
    const unit = input.scale === 'absolute' ? 1 : 1 / Math.abs(a);
    return {
      effect,
      nullVariance: (nA, nB) => {
        const pooled = (a * nA + b * nB) / (nA + nB);
        return pooled * (1 - pooled) * (1 / nA + 1 / nB) * unit * unit;
      },
      alternativeVariance: (nA, nB) => (vA / nA + vB / nB) * unit * unit,
    };
  }
  if (input.scale === 'absolute') {
    const v = (nA: number, nB: number): number => vA / nA + vB / nB;
    return { effect: mde * Math.abs(a), nullVariance: v, alternativeVariance: v };
  }
  const v = (nA: number, nB: number): number => vB / (nB * a * a) + (vA * b * b) / (nA * a ** 4);
  return { effect: mde, nullVariance: v, alternativeVariance: v };
}
