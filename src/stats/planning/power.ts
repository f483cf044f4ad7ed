import { DEFAULT_SEQUENTIAL_TUNING } from '../sequential/confidence-sequence.js';
import { normalCdf, normalQuantile } from '../distributions/distributions.js';
import type { Correction } from '../frequentist/multiple-testing.js';
import { comparisonPower, designFor, solveScale, type ComparisonDesign, type PlanAnalysis } from './planning.js';
import type { Scale, TestMethod } from '../types.js';

/**
 * Sample size and power for a two-sided test of a difference in means with equal allocation,
 * normal approximation (large-sample Welch): with δ = mde·|baseline| and per-arm standard error
 * se = σ·√(1/n_A + 1/n_B),
 *   power = Φ(δ/se − z_{1−α/2}) + Φ(−δ/se − z_{1−α/2}),
 * the same function statsmodels' NormalIndPower uses. n per arm solves power(n) = target exactly
 * (both tails). With `correction`, `method` and `scale` the plan matches the analysis the results will
 * run (planning.ts): the Bonferroni bound α/m of Holm across target metrics × treatment variants, the
 * confidence sequence's width, the analysed scale's standard error.
 */

export interface SampleSizeInput extends PlanAnalysis {
  readonly baselineMean: number;
  /** Per-session standard deviation; omit for a proportion to use √(p(1 − p)). */
  readonly stdDev?: number;
  /** Minimum detectable effect, relative (0.05 = 5%). */
  readonly mde: number;
  readonly power?: number;
  /** Arms including control. Default 2. */
  readonly variants?: number;
  /** Target metrics the correction runs over with the treatment variants (family = metrics × (variants − 1)). Default 1. */
  readonly targetMetrics?: number;
  /**
   * The analysed scale. Omitted: the textbook plan (equal variances on the absolute difference, =
   * statsmodels NormalIndPower). Given: the plan matches the analysis (see planning.ts): proportions
   * use the score test's power with p_B(1 − p_B) in the variant arm; the relative scale uses the
   * delta-method standard error.
   */
  readonly scale?: Scale;
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
  /** Comparisons in the correction's family (1 without a correction). */
  readonly comparisons: number;
  /** The per-comparison level planned for: α/m, the Bonferroni bound of Holm and BH. */
  readonly plannedAlpha: number;
  readonly method: TestMethod;
  readonly reason: string | null;
}

/** Two-sided power of a z-test when the true effect is `effectOverSe` standard errors. */
export function normalPower(effectOverSe: number, alpha = 0.05): number {
  const crit = normalQuantile(1 - alpha / 2);
  return normalCdf(effectOverSe - crit) + normalCdf(-effectOverSe - crit);
}

function familySize(input: { correction?: Correction; comparisons?: number; targetMetrics?: number; variants?: number }): number {
  if ((input.correction ?? 'none') === 'none') return 1;
  return input.comparisons ?? (input.targetMetrics ?? 1) * Math.max(1, (input.variants ?? 2) - 1);
}

export function sampleSize(input: SampleSizeInput): SampleSizeResult {
  const alpha = input.alpha ?? 0.05;
  const power = input.power ?? 0.8;
  const variants = input.variants ?? 2;
  const allocation = input.trafficAllocation ?? 1;
  const method = input.method ?? 'fixed';
  const comparisons = familySize(input);
  const analysis: PlanAnalysis = { ...input, alpha, comparisons };
  const p = input.baselineMean;
  const fail = (reason: string): SampleSizeResult => ({
    sessionsPerVariant: null,
    exactSessionsPerVariant: null,
    totalSessions: null,
    days: null,
    stdDev: null,
    absoluteEffect: null,
    comparisons,
    plannedAlpha: alpha / comparisons,
    method,
    reason,
  });
  let sd = input.stdDev;
  const proportion = sd === undefined;
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
  if (!Number.isInteger(comparisons) || comparisons < 1) return fail('comparisons and targetMetrics must be integers ≥ 1');
  const tuning = input.tuningParameter ?? DEFAULT_SEQUENTIAL_TUNING;
  if (!(tuning > 0 && Number.isFinite(tuning))) return fail('tuningParameter must be positive');
  const variantP = p + delta;
  if (proportion && input.scale !== undefined && !(variantP < 1)) return fail('baseline × (1 + mde) must stay below 1 for a proportion');
  // An effect so small that its square underflows needs more sessions than a double can count.
  const upperBound = (2 * (normalQuantile(1 - alpha / (2 * comparisons)) + normalQuantile(power)) ** 2) / (delta / sd) ** 2;
  if (!Number.isFinite(upperBound) || upperBound > 1e15)
    return fail('the effect is too small to detect with any practical number of sessions');
  const design =
    input.scale === undefined
      ? designFor({
          scale: 'absolute',
          method,
          baseline: p,
          mde: input.mde,
          varianceControl: sd * sd,
          varianceVariant: sd * sd,
          proportion: false,
        })
      : designFor({
          scale: input.scale,
          method,
          baseline: p,
          mde: input.mde,
          varianceControl: sd * sd,
          varianceVariant: proportion ? variantP * (1 - variantP) : sd * sd,
          proportion,
        });
  const exact = solveScale(design, analysis, power, 1, 1);
  if (exact === null) return fail('the effect is too small to detect with any practical number of sessions');
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
    comparisons,
    plannedAlpha: alpha / comparisons,
    method,
    reason: null,
  };
}

export interface PowerSoFarInput extends PlanAnalysis {
  readonly nControl: number;
  readonly nVariant: number;
  /** Observed per-unit variance of each arm (for a ratio metric, the delta-method variance). */
  readonly varianceControl: number;
  readonly varianceVariant: number;
  readonly baselineMean: number;
  readonly mde: number;
  /** Scale of the analysis; default 'absolute' (the textbook z-test on the difference). */
  readonly scale?: Scale;
  /** CUPED: fraction of variance the adjustment removes (0 ≤ r < 1); the variances are scaled by 1 − r. */
  readonly varianceReduction?: number;
  /** A proportion analysed with the score test (fixed horizon, unadjusted). Default false. */
  readonly proportion?: boolean;
}

function designOf(input: PowerSoFarInput): ComparisonDesign | null {
  const r = input.varianceReduction ?? 0;
  const { varianceControl: vA, varianceVariant: vB } = input;
  if (!(vA >= 0 && vB >= 0) || !(r >= 0 && r < 1) || !Number.isFinite(input.mde * input.baselineMean)) return null;
  if (!(input.mde !== 0 && input.baselineMean !== 0)) return null;
  return designFor({
    scale: input.scale ?? 'absolute',
    method: input.method ?? 'fixed',
    baseline: input.baselineMean,
    mde: input.mde,
    varianceControl: vA * (1 - r),
    varianceVariant: vB * (1 - r),
    proportion: (input.proportion ?? false) && r === 0,
  });
}

/** Power the experiment has so far against a true relative effect of `mde`, under the planned analysis. */
export function powerAchieved(input: PowerSoFarInput): { power: number | null; se: number | null } {
  const { nControl, nVariant } = input;
  const design = nControl > 0 && nVariant > 0 ? designOf(input) : null;
  if (design === null) return { power: null, se: null };
  const se = Math.sqrt(design.alternativeVariance(nControl, nVariant));
  if (!(se > 0)) return { power: null, se: null };
  return { power: comparisonPower(design, input, nControl, nVariant), se };
}

export interface UnitsStillNeeded {
  /** Power now. */
  readonly power: number | null;
  /** Units each arm needs in total for the target power, keeping the current allocation. */
  readonly requiredControl: number | null;
  readonly requiredVariant: number | null;
  /** Units still to collect in this comparison (both arms; 0 once the target power is reached). */
  readonly additionalUnits: number | null;
  readonly reason: string | null;
}

/**
 * "Units still needed": how many more units this comparison needs to reach `power` at `mde` under the
 * planned analysis (correction, method, scale), with the observed per-unit variances — after CUPED's
 * variance reduction when the analysis adjusts — and the current split between the arms.
 */
export function unitsStillNeeded(input: PowerSoFarInput & { readonly power?: number }): UnitsStillNeeded {
  const target = input.power ?? 0.8;
  const { nControl, nVariant } = input;
  const fail = (reason: string): UnitsStillNeeded => ({
    power: null,
    requiredControl: null,
    requiredVariant: null,
    additionalUnits: null,
    reason,
  });
  if (!(nControl >= 2 && nVariant >= 2)) return fail('each arm needs at least 2 units to estimate its variance');
  if (!(target > 0 && target < 1)) return fail('power must be in (0, 1)');
  const design = designOf(input);
  if (design === null || !(design.alternativeVariance(nControl, nVariant) > 0)) return fail('variances, mde and baseline must be valid');
  const now = comparisonPower(design, input, nControl, nVariant);
  const scale = solveScale(design, input, target, nControl, nVariant);
  if (scale === null) return { ...fail('the effect is too small to detect with any practical number of units'), power: now };
  const requiredControl = Math.ceil(scale * nControl);
  const requiredVariant = Math.ceil(scale * nVariant);
  const additionalUnits = Math.max(0, requiredControl - nControl) + Math.max(0, requiredVariant - nVariant);
  return { power: now, requiredControl, requiredVariant, additionalUnits, reason: null };
}
