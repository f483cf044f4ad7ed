import {
  DEFAULT_PROPER_PRIOR,
  armMoments,
  bayesianEffectTest,
  benjaminiHochberg,
  estimateCupedEffect,
  estimateEffect,
  fixedHorizonTest,
  holm,
  powerAchieved,
  sequentialEffectTest,
  type CupedSums,
  type EffectEstimate,
  type RatioSums,
} from '../../stats/index.js';
import type { AnalysisSettings } from '../definition/experiment.store.js';
import { METRIC_CATALOGUE, type MetricName } from '../../vocabulary/index.js';
import type { CovariateSums } from './results.store.js';

export const addSums = (a: RatioSums, b: RatioSums): RatioSums => ({
  n: a.n + b.n,
  sumX: a.sumX + b.sumX,
  sumY: a.sumY + b.sumY,
  sumX2: a.sumX2 + b.sumX2,
  sumY2: a.sumY2 + b.sumY2,
  sumXY: a.sumXY + b.sumXY,
});
export const ZERO_SUMS: RatioSums = { n: 0, sumX: 0, sumY: 0, sumX2: 0, sumY2: 0, sumXY: 0 };

export interface ComparisonResult {
  variantId: string;
  controlVariantId: string;
  absoluteLift: number | null;
  relativeLift: number | null;
  ci: [number, number] | null;
  relativeCi: [number, number] | null;
  pValue: number | null;
  adjustedPValue: number | null;
  significant: boolean;
  improved: boolean | null;
  chanceToBeatControl: number | null;
  risk: { control: number; variant: number } | null;
  cuped: { theta: number | null; varianceReduction: number | null; unitsWithCovariate: number } | null;
  power: number | null;
  reason: string | null;
}

const direction = (metric: MetricName) => METRIC_CATALOGUE.find((m) => m.name === metric)!.direction;

function cupedInputs(c: CovariateSums): CupedSums {
  return { ...c };
}

/**
 * One metric, one treatment against control: the effect (CUPED-adjusted when both arms carry
 * covariates and the setting is on), the chosen test, the Bayesian view and the power so far.
 * The p-value is adjusted later, across every metric and treatment.
 */
export function compare(
  metric: MetricName,
  control: { id: string; sums: RatioSums; covariates?: CovariateSums },
  variant: { id: string; sums: RatioSums; covariates?: CovariateSums },
  settings: AnalysisSettings,
): ComparisonResult {
  const dir = direction(metric);
  let effect: EffectEstimate = estimateEffect(control.sums, variant.sums);
  let cuped: ComparisonResult['cuped'] = null;
  if (settings.cuped && control.covariates && variant.covariates && control.covariates.covered > 0 && variant.covariates.covered > 0) {
    const adjusted = estimateCupedEffect(cupedInputs(control.covariates), cupedInputs(variant.covariates));
    if (adjusted.absoluteVariance !== null) {
      effect = adjusted;
      cuped = {
        theta: adjusted.theta,
        varianceReduction: adjusted.varianceReduction,
        unitsWithCovariate: control.covariates.covered + variant.covariates.covered,
      };
    }
  }
  const test =
    settings.method === 'sequential'
      ? sequentialEffectTest(effect, { alpha: settings.alpha, tuningParameter: settings.sequentialTuning, direction: dir })
      : fixedHorizonTest(effect, { alpha: settings.alpha, direction: dir });
  const bayes = bayesianEffectTest(effect, {
    prior: settings.bayesianPrior === 'proper' ? DEFAULT_PROPER_PRIOR : 'improper',
    direction: dir,
    alpha: settings.alpha,
  });
  const a = armMoments(control.sums);
  const b = armMoments(variant.sums);
  const power =
    a.mean !== null && a.variance !== null && b.variance !== null
      ? powerAchieved({
          nControl: a.n,
          nVariant: b.n,
          varianceControl: a.variance,
          varianceVariant: b.variance,
          baselineMean: a.mean,
          mde: settings.mde,
          alpha: settings.alpha,
        }).power
      : null;
  return {
    variantId: variant.id,
    controlVariantId: control.id,
    absoluteLift: test.absoluteLift,
    relativeLift: test.relativeLift,
    ci: test.ci ? [test.ci[0], test.ci[1]] : null,
    relativeCi: test.relativeCi ? [test.relativeCi[0], test.relativeCi[1]] : null,
    pValue: test.pValue,
    adjustedPValue: null,
    significant: false,
    improved: null,
    chanceToBeatControl: bayes.chanceToBeatControl,
    risk: bayes.risk ? { control: bayes.risk.control, variant: bayes.risk.variant } : null,
    cuped,
    power,
    reason: test.reason,
  };
}

/** Adjusts every comparison's p-value together and decides significance at alpha. */
export function applyCorrection(comparisons: { metric: MetricName; result: ComparisonResult }[], settings: AnalysisSettings): void {
  const raw = comparisons.map((c) => c.result.pValue);
  const adjusted =
    settings.correction === 'holm'
      ? holm(raw, settings.alpha).adjusted
      : settings.correction === 'benjamini-hochberg'
        ? benjaminiHochberg(raw, settings.alpha).adjusted
        : raw;
  comparisons.forEach(({ metric, result }, i) => {
    const p = adjusted[i] ?? null;
    result.adjustedPValue = p;
    result.significant = p !== null && p < settings.alpha;
    if (result.absoluteLift === null) result.improved = null;
    else result.improved = result.significant && (direction(metric) === 'higher' ? result.absoluteLift > 0 : result.absoluteLift < 0);
  });
}
