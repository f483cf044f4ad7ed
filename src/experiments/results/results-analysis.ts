import {
  DEFAULT_PROPER_PRIOR,
  analyzeEffect,
  armMoments,
  bayesianEffectTest,
  compareProportions,
  correctComparisons,
  estimateCupedEffect,
  estimateEffect,
  unitsStillNeeded,
  type CupedSums,
  type EffectEstimate,
  type FrequentistResult,
  type GaussianPrior,
  type RatioSums,
  type Scale,
} from '../../stats/index.js';
import type { AnalysisSettings } from '../model/experiment.store.js';
import { metricDefinition, metricDirection, type AnalysisMetricName, type MetricName } from '../../vocabulary/index.js';
import type { CovariateSums } from './results.store.js';

type Pair = [number, number];
const pair = (i: readonly [number, number] | null): Pair | null => (i ? [i[0], i[1]] : null);

/** The settings one read is computed with: the experiment's, overridden by the request. */
export type ReadSettings = AnalysisSettings;

/** The planner's options for one read (linear and quantile metrics alike): planned as analysed. */
export const plannerSettings = (settings: ReadSettings, comparisons: number) => ({
  mde: settings.mde,
  alpha: settings.alpha,
  correction: settings.correction,
  comparisons,
  method: settings.method,
  tuningParameter: settings.sequentialTuning,
  scale: settings.scale,
});

/** What a comparison reports of its plan: the power, and the units still needed when more are. */
export function plannedPower(
  plan: { power: number | null; additionalUnits: number | null; requiredControl: number | null; requiredVariant: number | null } | null,
) {
  return {
    power: plan?.power ?? null,
    unitsStillNeeded:
      plan && plan.additionalUnits !== null
        ? { additionalUnits: plan.additionalUnits, requiredControl: plan.requiredControl!, requiredVariant: plan.requiredVariant! }
        : null,
  };
}

export interface ComparisonResult {
  variantId: string;
  controlVariantId: string;
  /** The scale of estimate, interval, pValue, adjustedPValue, significant, improved and the Bayesian view. */
  scale: Scale;
  /** welch-t, normal, score (Miettinen–Nurminen, proportions) or confidence-sequence; null without a test. */
  test: string | null;
  estimate: number | null;
  /** At alpha, from the same procedure as pValue: excludes 0 exactly when pValue < alpha. */
  interval: Pair | null;
  /** The interval at the level that agrees with adjustedPValue: excludes 0 exactly when significant. */
  adjustedInterval: Pair | null;
  otherScale: { scale: Scale; estimate: number | null; reason: string | null };
  absoluteLift: number | null;
  relativeLift: number | null;
  ci: Pair | null;
  relativeCi: Pair | null;
  pValue: number | null;
  adjustedPValue: number | null;
  significant: boolean;
  improved: boolean | null;
  chanceToBeatControl: number | null;
  risk: { control: number; variant: number } | null;
  cuped: { theta: number | null; varianceReduction: number | null; unitsWithCovariate: number } | null;
  power: number | null;
  unitsStillNeeded: { additionalUnits: number; requiredControl: number; requiredVariant: number } | null;
  reason: string | null;
}

/** A comparison with the stats result it came from (kept for the correction, never serialised). */
export interface Analysed {
  metric: AnalysisMetricName;
  variantName: string;
  result: ComparisonResult;
  test: FrequentistResult;
}

const direction = (metric: AnalysisMetricName) => metricDirection(metric);

/** A proportion of sessions: each session converts (X ∈ {0, 1}) and counts once (Y = 1). */
export function isSessionProportion(metric: MetricName): boolean {
  const y = metricDefinition(metric).y;
  return y.length === 1 && y[0]![0] === 'one' && y[0]![1] === 1;
}

/** A prior stated on one scale, moved to the other with the control mean: relative × |A| = absolute. */
function onScale(prior: GaussianPrior & { scale?: Scale }, scale: Scale, controlMean: number | null): GaussianPrior | 'improper' {
  const from = prior.scale ?? 'relative';
  if (from === scale) return { mean: prior.mean, stdDev: prior.stdDev };
  const a = Math.abs(controlMean ?? 0);
  if (!(a > 0)) return 'improper';
  const k = scale === 'absolute' ? a : 1 / a;
  return { mean: prior.mean * k, stdDev: prior.stdDev * k };
}

/**
 * The prior of a metric on the read's scale: analysis.priors[metric] if given, else `bayesianPrior`
 * ('proper' = N(0, 0.3²) on the relative lift, GrowthBook's). A prior stated on the other scale is
 * converted with |control mean|.
 */
export function priorFor(metric: AnalysisMetricName, settings: ReadSettings, effect: EffectEstimate): 'improper' | GaussianPrior {
  const own = settings.priors?.[metric as MetricName];
  if (own) return onScale(own, settings.scale, effect.controlMean);
  if (settings.bayesianPrior !== 'proper') return 'improper';
  return onScale(DEFAULT_PROPER_PRIOR, settings.scale, effect.controlMean);
}

/**
 * The frequentist test on the read's scale and method. Proportions of sessions without CUPED, fixed
 * horizon: the Miettinen–Nurminen score test and its inverted interval (valid with zero cells, see
 * src/stats/README.md); everything else (ratio metrics such as ctr, CUPED-adjusted or sequential):
 * the delta method through analyzeEffect, which refuses zero-variance arms with ZERO_VARIANCE.
 */
export function testEffect(
  metric: MetricName,
  effect: EffectEstimate,
  sums: { control: RatioSums; variant: RatioSums } | null,
  settings: ReadSettings,
): FrequentistResult {
  const options = {
    scale: settings.scale,
    method: settings.method,
    alpha: settings.alpha,
    tuningParameter: settings.sequentialTuning,
    direction: direction(metric),
  };
  if (sums && isSessionProportion(metric)) {
    return compareProportions(sums.control.sumX, sums.control.n, sums.variant.sumX, sums.variant.n, options);
  }
  return analyzeEffect(effect, options);
}

/**
 * One metric, one treatment against control: the effect (CUPED-adjusted when both arms carry
 * covariates and the setting is on), the test on one scale, the Bayesian view on the same scale and
 * the power so far. The p-value is adjusted later, across every metric and treatment.
 */
export function compare(
  metric: MetricName,
  control: { id: string; sums: RatioSums; covariates?: CovariateSums },
  variant: { id: string; sums: RatioSums; covariates?: CovariateSums },
  settings: ReadSettings,
  /** Comparisons in the correction's family (target metrics × treatments), for the planned power. */
  family = 1,
): { result: ComparisonResult; test: FrequentistResult } {
  let effect: EffectEstimate = estimateEffect(control.sums, variant.sums);
  let cuped: ComparisonResult['cuped'] = null;
  if (settings.cuped && control.covariates && variant.covariates && control.covariates.covered > 0 && variant.covariates.covered > 0) {
    const adjusted = estimateCupedEffect({ ...control.covariates } as CupedSums, { ...variant.covariates } as CupedSums);
    if (adjusted.absoluteVariance !== null) {
      effect = adjusted;
      cuped = {
        theta: adjusted.theta,
        varianceReduction: adjusted.varianceReduction,
        unitsWithCovariate: control.covariates.covered + variant.covariates.covered,
      };
    }
  }
  const test = testEffect(metric, effect, cuped ? null : { control: control.sums, variant: variant.sums }, settings);
  const bayes = bayesianEffectTest(effect, {
    scale: settings.scale,
    prior: priorFor(metric, settings, effect),
    direction: direction(metric),
    alpha: settings.alpha,
  });
  const a = armMoments(control.sums);
  const b = armMoments(variant.sums);
  // Planned as analysed: this read's scale, method, correction over the family, CUPED's reduction, score test for proportions.
  const plan =
    a.mean !== null && a.variance !== null && b.variance !== null
      ? unitsStillNeeded({
          nControl: a.n,
          nVariant: b.n,
          varianceControl: a.variance,
          varianceVariant: b.variance,
          baselineMean: a.mean,
          ...plannerSettings(settings, family),
          varianceReduction: cuped?.varianceReduction ?? 0,
          proportion: isSessionProportion(metric) && cuped === null,
        })
      : null;
  const result = comparisonResult(control.id, variant.id, test, bayes, { cuped, ...plannedPower(plan) });
  return { result, test };
}

/** A comparison's answer from its test and Bayesian view (significance is decided later, by applyCorrection). */
export function comparisonResult(
  controlId: string,
  variantId: string,
  test: FrequentistResult,
  bayes: ReturnType<typeof bayesianEffectTest>,
  extras: Pick<ComparisonResult, 'cuped' | 'power' | 'unitsStillNeeded'>,
): ComparisonResult {
  return {
    variantId,
    controlVariantId: controlId,
    scale: test.scale,
    test: test.basis?.kind ?? null,
    estimate: test.estimate,
    interval: pair(test.interval),
    adjustedInterval: null,
    otherScale: { ...test.otherScale },
    absoluteLift: test.absoluteLift,
    relativeLift: test.relativeLift,
    ci: pair(test.ci),
    relativeCi: pair(test.relativeCi),
    pValue: test.pValue,
    adjustedPValue: null,
    significant: false,
    improved: null,
    chanceToBeatControl: bayes.chanceToBeatControl,
    risk: bayes.risk ? { control: bayes.risk.control, variant: bayes.risk.variant } : null,
    ...extras,
    reason: test.reason ?? bayes.reason,
  };
}

/**
 * Adjusts every comparison's p-value together (on the read's scale) and decides significance at
 * alpha: significant ⇔ adjustedPValue < alpha ⇔ adjustedInterval excludes 0 (correctComparisons).
 */
export function applyCorrection(comparisons: readonly Analysed[], settings: ReadSettings): void {
  const corrected = correctComparisons(
    comparisons.map((c) => c.test),
    settings.correction,
    settings.alpha,
  );
  comparisons.forEach(({ result }, i) => {
    const c = corrected[i]!;
    result.adjustedPValue = c.adjustedPValue;
    result.adjustedInterval = pair(c.adjustedInterval);
    result.significant = c.significant;
    result.improved = c.improved;
  });
}
