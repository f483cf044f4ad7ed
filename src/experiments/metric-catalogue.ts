/**
 * The metrics an experiment can target. Each is a ratio of per-session sums (numerator /
 * denominator); a proportion of sessions has denominator 1 per session. The README's
 * metric table is generated from the same definitions.
 */
export interface MetricDefinition {
  name: string;
  direction: 'higher' | 'lower';
  numerator: string;
  denominator: string;
}

export const METRIC_CATALOGUE = [
  { name: 'ctr', direction: 'higher', numerator: 'clicks', denominator: 'impressions' },
  { name: 'abandonment_rate', direction: 'lower', numerator: 'searches without a click', denominator: 'searches' },
  { name: 'mrr', direction: 'higher', numerator: 'Σ 1/position of the first click per search', denominator: 'searches' },
  { name: 'mean_rating', direction: 'higher', numerator: 'rating sum', denominator: 'rated items' },
  { name: 'dwell_time', direction: 'higher', numerator: 'dwell time sum (ms)', denominator: 'clicks with a dwell time' },
  { name: 'time_to_click', direction: 'lower', numerator: 'time-to-click sum (ms)', denominator: 'clicks with a time to click' },
  { name: 'satisfied_click_rate', direction: 'higher', numerator: 'clicks with dwell ≥ 30 s', denominator: 'clicks' },
  { name: 'scroll_depth', direction: 'higher', numerator: 'scroll depth sum', denominator: 'items with a scroll depth' },
  { name: 'conversion_rate', direction: 'higher', numerator: 'sessions with a conversion (0/1)', denominator: 'sessions (1)' },
] as const satisfies readonly MetricDefinition[];

export type MetricName = (typeof METRIC_CATALOGUE)[number]['name'];
export const METRIC_NAMES = METRIC_CATALOGUE.map((m) => m.name) as readonly MetricName[];
