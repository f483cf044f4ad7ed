import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Search analytics on PostgreSQL, issue 12: the queries page reads, per span and dimension value,
 * every query's counters without the histogram (thousands of rows for a month), and the change
 * sort looks up each listed query's row of another span. The table rows are wide (31 counters,
 * the histogram included), so on PostgreSQL these reads visited a heap page per row — 17 500
 * buffers for one 30-day page at 10 M feedback items. This index holds the key and the list's
 * counters, so they are index-only scans over ~800 pages (3–5× faster on that load); SQLite's
 * table is itself stored in key order (without rowid) and gets no index.
 *
 * Index-only scans need the visibility map: the fold updates span rows every hour as the anchor
 * moves, so autovacuum is asked to visit the table after 2 % of its rows changed (instead of 20 %).
 */
const LIST_COUNTERS_0070 = [
  'hour_rows',
  'searches',
  'abandoned',
  'sessions',
  'impressions',
  'clicks',
  'conversions',
  'first_clicks',
  'first_click_position_sum',
  'zero_result_searches',
  'result_count_searches',
  'first_click_rr_sum',
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create index analytics_query_windows_list_idx on analytics_query_windows (span, dimension, dim_value, query_hash) include (${sql.join(
    LIST_COUNTERS_0070.map((c) => sql.ref(c)),
  )})`.execute(db);
  await sql`alter table analytics_query_windows set (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table analytics_query_windows reset (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor)`.execute(db);
  await db.schema.dropIndex('analytics_query_windows_list_idx').ifExists().execute();
}
