import {
  addGridDelta,
  analyzeEffect,
  bayesianEffectTest,
  emptyGridDelta,
  gridSumsOf,
  quantileEffect,
  quantileOfGrid,
  quantileUnitsStillNeeded,
  type FrequentistResult,
  type QuantileEstimate,
  type QuantileGridDelta,
} from '../../stats/index.js';
import { quantileMetricDefinition, type QuantileMetricName } from '../../vocabulary/index.js';
import { QUANTILE_GRID } from '../model/stored-quantile-grid.js';
import { comparisonResult, plannedPower, plannerSettings, priorFor, type ComparisonResult, type ReadSettings } from './results-analysis.js';

/** Sums grid rows (e.g. an arm's days, or the slices merged into "(other)"). */
export function sumGrids(rows: readonly QuantileGridDelta[]): QuantileGridDelta {
  return rows.reduce((acc, r) => addGridDelta(acc, r), emptyGridDelta(QUANTILE_GRID.length));
}

/** One arm's quantile of a quantile metric, read off its grid sums (src/stats quantileOfGrid). */
export function armQuantile(metric: QuantileMetricName, sums: QuantileGridDelta): QuantileEstimate {
  return quantileOfGrid(gridSumsOf(QUANTILE_GRID, sums), quantileMetricDefinition(metric).q);
}

/** A quantile metric's variant entry: units with at least one item, the quantile, its items and standard error. */
export function quantileVariant(variantId: string, e: QuantileEstimate) {
  return { variantId, units: e.units, numerator: null, denominator: null, value: e.quantile, items: e.items, standardError: e.se };
}

/**
 * Treatment against control on a quantile metric: the difference of the arms' quantiles (absolute, or
 * relative to |control quantile|) with the cluster-robust Woodruff standard errors (src/stats quantiles.ts),
 * tested on the read's scale and method like any effect (normal reference: no df); the Bayesian view on the
 * same effect (improper, or the read's proper prior). Power and units still needed are planned as analysed
 * (the read's scale, method, correction over `family`), with each arm's standard error taken to scale as
 * 1/√units (quantileUnitsStillNeeded). No CUPED or capping for quantiles.
 */
export function compareQuantileMetric(
  metric: QuantileMetricName,
  control: { id: string; estimate: QuantileEstimate },
  variant: { id: string; estimate: QuantileEstimate },
  settings: ReadSettings,
  /** Comparisons in the correction's family (target metrics × treatments), for the planned power. */
  family = 1,
): { result: ComparisonResult; test: FrequentistResult } {
  const direction = quantileMetricDefinition(metric).direction;
  const effect = quantileEffect(control.estimate, variant.estimate);
  const test = analyzeEffect(effect, {
    scale: settings.scale,
    method: settings.method,
    alpha: settings.alpha,
    tuningParameter: settings.sequentialTuning,
    direction,
  });
  const bayes = bayesianEffectTest(effect, {
    scale: settings.scale,
    prior: priorFor(metric, settings, effect),
    direction,
    alpha: settings.alpha,
  });
  const plan = quantileUnitsStillNeeded(control.estimate, variant.estimate, plannerSettings(settings, family));
  const result = comparisonResult(control.id, variant.id, test, bayes, { cuped: null, ...plannedPower(plan) });
  return { result, test };
}
