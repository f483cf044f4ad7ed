/**
 * The service's shared language: what a feedback action means and how each experiment metric is
 * computed. Ground floor and pure (imports nothing outside this folder), so experiments, learning,
 * storage types and any later analytics read one definition.
 */
export {
  ACTIONS,
  ACTION_SQL,
  CONVERSION_ACTIONS,
  ENGAGEMENT_ACTIONS,
  KNOWN_ACTIONS,
  SATISFIED_DWELL_MS,
  isClick,
  isConversion,
  isImpression,
  isSatisfiedClick,
} from './actions.js';
export {
  METRIC_CATALOGUE,
  METRIC_NAMES,
  UNIT_STAT_COLUMNS,
  UNIT_STAT_FOLDS,
  emptyStats,
  linearValue,
  metricDefinition,
  startingValues,
  type Fold,
  type FoldContext,
  type LinearTerm,
  type MetricDefinition,
  type MetricItem,
  type MetricName,
  type UnitStatColumn,
  type UnitStats,
} from './metrics.js';
export {
  ANALYSIS_METRIC_NAMES,
  QUANTILE_GRID_SPEC,
  QUANTILE_METRIC_CATALOGUE,
  QUANTILE_METRIC_NAMES,
  QUANTILE_SOURCES,
  isQuantileMetric,
  metricDirection,
  quantileMetricDefinition,
  quantileValue,
  type AnalysisMetricName,
  type QuantileMetricDefinition,
  type QuantileMetricName,
  type QuantileSource,
} from './quantile-metrics.js';
export { MOMENT_SUM_KEYS, momentSumsOf, type MomentSums } from './moment-sums.js';
export { describeAliasMove, describeAliasTarget, type AliasTarget } from './alias-targets.js';
