import { METRIC_CATALOGUE, METRIC_NAMES, type MetricItem, type MetricName } from './metrics.js';

/**
 * Quantile metrics (issue 13): a per-item quantile of a millisecond field (time to click, dwell time), over
 * every attributed item of an arm that carries the field, compared between arms as a difference of
 * quantiles with an interval that accounts for the clustering of items within sessions (src/stats
 * quantiles.ts). Not ratios of per-session sums, so they live beside the ratio catalogue: attribution keeps
 * grid sums per source (below), not unit-stat columns.
 */
export const QUANTILE_SOURCES = [
  { name: 'time_to_click', field: 'timeToClick' },
  { name: 'dwell_time', field: 'dwellTime' },
] as const satisfies readonly { name: string; field: keyof MetricItem }[];
export type QuantileSource = (typeof QUANTILE_SOURCES)[number]['name'];

export interface QuantileMetricDefinition {
  name: string;
  direction: 'higher' | 'lower';
  source: QuantileSource;
  q: number;
  description: string;
}

export const QUANTILE_METRIC_CATALOGUE = [
  { name: 'time_to_click_p50', direction: 'lower', source: 'time_to_click', q: 0.5, description: 'median time to click (ms) per item' },
  {
    name: 'time_to_click_p90',
    direction: 'lower',
    source: 'time_to_click',
    q: 0.9,
    description: '90th percentile of time to click (ms) per item',
  },
  { name: 'dwell_time_p50', direction: 'higher', source: 'dwell_time', q: 0.5, description: 'median dwell time (ms) per item' },
  { name: 'dwell_time_p90', direction: 'higher', source: 'dwell_time', q: 0.9, description: '90th percentile of dwell time (ms) per item' },
] as const satisfies readonly QuantileMetricDefinition[];

export type QuantileMetricName = (typeof QUANTILE_METRIC_CATALOGUE)[number]['name'];
export const QUANTILE_METRIC_NAMES = QUANTILE_METRIC_CATALOGUE.map((m) => m.name) as readonly QuantileMetricName[];

/** Every metric an experiment can name as a target or guardrail: the ratio catalogue and the quantiles. */
export type AnalysisMetricName = MetricName | QuantileMetricName;
export const ANALYSIS_METRIC_NAMES = [...METRIC_NAMES, ...QUANTILE_METRIC_NAMES] as readonly AnalysisMetricName[];

export const isQuantileMetric = (name: string): name is QuantileMetricName => (QUANTILE_METRIC_NAMES as readonly string[]).includes(name);

export function quantileMetricDefinition(name: QuantileMetricName): QuantileMetricDefinition {
  return QUANTILE_METRIC_CATALOGUE.find((m) => m.name === name)!;
}

/** The better direction of any analysis metric. */
export function metricDirection(name: AnalysisMetricName): 'higher' | 'lower' {
  const quantile = QUANTILE_METRIC_CATALOGUE.find((m) => m.name === name);
  if (quantile) return quantile.direction;
  return METRIC_CATALOGUE.find((m) => m.name === name)!.direction;
}

/** The field of an item a quantile source reads (ms), or null when the item does not carry it. */
export function quantileValue(item: MetricItem, source: QuantileSource): number | null {
  const field = QUANTILE_SOURCES.find((s) => s.name === source)!.field;
  return item[field];
}

/**
 * The fixed threshold grid of the grid sums, in ms: 0, then log-spaced from 1 ms by a factor of 1.01 until
 * it reaches 86 400 000 ms (24 h, the largest duration feedback accepts), 1 838 thresholds (src/stats
 * logGrid(1, 86_400_000, 1.01)). Quantiles interpolate linearly between adjacent thresholds, so a quantile
 * read from the grid is within 1 % (relative) of the exact item quantile at or above 1 ms (within 1 ms
 * below). Changing the grid invalidates stored sums: it is part of the storage format.
 */
export const QUANTILE_GRID_SPEC = { start: 1, end: 86_400_000, ratio: 1.01 } as const;
