import type { UnitStats } from '../storage/schema.js';
import type { MetricName } from './metric-catalogue.js';

/** A per-unit quantity as a signed sum of unit-stat columns; `one` is the constant 1. */
export type LinearTerm = readonly [keyof UnitStats | 'one', number];

export interface MetricColumns {
  x: readonly LinearTerm[];
  y: readonly LinearTerm[];
}

/** How each catalogue metric's per-session numerator X and denominator Y come from the unit sums. */
export const METRIC_COLUMNS: Record<MetricName, MetricColumns> = {
  ctr: { x: [['clicks', 1]], y: [['impressions', 1]] },
  abandonment_rate: {
    x: [
      ['searches', 1],
      ['searches_with_click', -1],
    ],
    y: [['searches', 1]],
  },
  mrr: { x: [['rr_sum', 1]], y: [['searches', 1]] },
  mean_rating: { x: [['rating_sum', 1]], y: [['rated_items', 1]] },
  dwell_time: { x: [['dwell_sum', 1]], y: [['dwell_count', 1]] },
  time_to_click: { x: [['ttc_sum', 1]], y: [['ttc_count', 1]] },
  satisfied_click_rate: { x: [['satisfied_clicks', 1]], y: [['clicks', 1]] },
  scroll_depth: { x: [['scroll_sum', 1]], y: [['scroll_count', 1]] },
  conversion_rate: { x: [['conversions', 1]], y: [['one', 1]] },
};
