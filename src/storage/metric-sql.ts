import { sql, type RawBuilder } from 'kysely';
import { METRIC_CATALOGUE, type MetricName } from '../vocabulary/index.js';

/**
 * The metric catalogue's per-session SQL as Kysely fragments over raw feedback_items rows grouped
 * by session (unqualified column names, so any alias of the table works). The text comes from the
 * catalogue's constants, never from a request, so sql.raw is safe here.
 */
export const SESSION_METRIC_SQL: [MetricName, RawBuilder<number>, RawBuilder<number>][] = METRIC_CATALOGUE.flatMap((m) =>
  'session' in m.sql
    ? [[m.name, sql.raw<number>(m.sql.session.x), sql.raw<number>(m.sql.session.y)] as [MetricName, RawBuilder<number>, RawBuilder<number>]]
    : [],
);

/** Every session-level metric's X and Y as `<metric>_x` / `<metric>_y` selections. */
export const sessionMetricSelections = () => SESSION_METRIC_SQL.flatMap(([m, x, y]) => [x.as(`${m}_x`), y.as(`${m}_y`)]);

/** The per-session X of a metric computed per search first (subquery `s`: has_click, rr). */
export function searchMetricX(metric: MetricName): RawBuilder<number> | undefined {
  const m = METRIC_CATALOGUE.find((d) => d.name === metric)!;
  return 'search' in m.sql ? sql.raw<number>(m.sql.search.x) : undefined;
}
