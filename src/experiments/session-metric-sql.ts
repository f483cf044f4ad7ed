import { sql, type RawBuilder } from 'kysely';
import type { MetricName } from './metric-catalogue.js';

const flag = (condition: RawBuilder<unknown>) => sql<number>`case when ${condition} then 1 else 0 end`;
export const IS_CLICK = sql`user_action = 'click'`;

/**
 * A metric's per-session X and Y as aggregates over raw feedback_items rows grouped by
 * session (unqualified column names, so any alias of the table works). The metric catalogue's
 * definitions, for the metrics that need no per-search grouping; used by planning (recent
 * baselines) and by pre-exposure CUPED covariates.
 */
export const SESSION_METRIC_SQL: [MetricName, RawBuilder<number>, RawBuilder<number>][] = [
  ['ctr', sql`sum(${flag(IS_CLICK)})`, sql`sum(${flag(sql`user_action = 'impression'`)})`],
  ['mean_rating', sql`coalesce(sum(rating), 0)`, sql`count(rating)`],
  ['dwell_time', sql`coalesce(sum(dwell_time), 0)`, sql`count(dwell_time)`],
  ['time_to_click', sql`coalesce(sum(time_to_click), 0)`, sql`count(time_to_click)`],
  ['satisfied_click_rate', sql`sum(${flag(sql`dwell_time >= 30000`)})`, sql`sum(${flag(IS_CLICK)})`],
  ['scroll_depth', sql`coalesce(sum(scroll_depth), 0)`, sql`count(scroll_depth)`],
  ['conversion_rate', sql`max(${flag(sql`user_action in ('purchase', 'conversion')`)})`, sql`1`],
];

/** Every metric's X and Y as `<metric>_x` / `<metric>_y` selections. */
export const sessionMetricSelections = () => SESSION_METRIC_SQL.flatMap(([m, x, y]) => [x.as(`${m}_x`), y.as(`${m}_y`)]);
