/**
 * The metric catalogue in words: a short name for tight places (the experiment list's headline) and
 * what it measures. No imports, so the browser tests can read it too; metric-fields.tsx checks it
 * against the API's enum (a metric added to the catalogue fails the type check until it is named here).
 */
export const METRIC_LABELS = {
  ctr: { short: 'CTR', long: 'click-through rate' },
  abandonment_rate: { short: 'Abandonment', long: 'searches without a click' },
  mrr: { short: 'MRR', long: 'reciprocal rank of the first click' },
  mean_rating: { short: 'Rating', long: 'mean explicit rating' },
  dwell_time: { short: 'Dwell time', long: 'dwell time per click' },
  time_to_click: { short: 'Time to click', long: 'time to the first click' },
  satisfied_click_rate: { short: 'Satisfied clicks', long: 'clicks with 30 s+ dwell' },
  scroll_depth: { short: 'Scroll depth', long: 'how far down the results sessions scroll' },
  conversion_rate: { short: 'Conversion', long: 'sessions that convert' },
  time_to_click_p50: { short: 'Time to click p50', long: 'median time to click (per click)' },
  time_to_click_p90: { short: 'Time to click p90', long: '90th percentile time to click' },
  dwell_time_p50: { short: 'Dwell time p50', long: 'median dwell time (per click)' },
  dwell_time_p90: { short: 'Dwell time p90', long: '90th percentile dwell time' },
} as const satisfies Record<string, { short: string; long: string }>;

/** A metric name as the API reports it, in words ("mrr" → "MRR"); an unknown name reads with spaces. */
export function metricLabel(metric: string): string {
  return (METRIC_LABELS as Partial<Record<string, { short: string }>>)[metric]?.short ?? metric.replaceAll('_', ' ');
}
