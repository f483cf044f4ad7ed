import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Search analytics, issue 12: per-query totals over the standard spans (7, 14, 30 and 60 days)
 * ending at an anchor hour, so that the queries page over a month reads one row per query instead
 * of one per (query, hour).
 *
 * - analytics_query_windows holds, per span, dimension value and query, the counters of
 *   analytics_query_hours summed over [anchor − span, anchor) and `hour_rows`, how many hour rows
 *   that is (the query had feedback in the span when it is > 0). The analytics fold keeps it equal
 *   to those sums in the same transaction as the hours (a late event before the anchor is added to
 *   it too) and moves the anchor to the current hour by adding the hours that enter each span and
 *   subtracting those that leave it;
 * - analytics_progress.window_anchor is that anchor (null until the first fold);
 * - analytics_entities.last_received is the latest `received_at` of the items folded into each
 *   search, session and (session, query) state, so that these per-search rows (they name sessions
 *   and queryIds) are removed with the raw items under FEEDBACK_RETENTION_DAYS. Existing rows get
 *   the migration's time: they are kept one retention period from now;
 * - analytics_query_hours' (dimension, value, query, hour) index also holds `searches`, so the
 *   sparklines of a page (one query's searches per hour) are read from the index alone;
 * - distinct queries per bucket of the overview: analytics_total_hours.queries counts the query
 *   hour rows of its hour, analytics_query_days marks each (query, UTC day) with a query hour row
 *   and analytics_total_days.queries counts those marks per day. The fold adds a query's first row
 *   in an hour and its first mark in a day; existing rows are counted here once;
 * - analytics_result_slices: impressions and clicks per query, result and position per dimension
 *   value (the item's own), so the one-query page's results honour its dimension filter (from
 *   this migration on: older items are in analytics_result_hours only).
 */
const COUNTERS_0021 = [
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
  ...Array.from({ length: 21 }, (_, i) => `fc_${String(i + 1).padStart(2, '0')}`),
];

export async function up(db: Kysely<any>): Promise<void> {
  let t = db.schema
    .createTable('analytics_query_windows')
    .addColumn('span', 'integer', (c) => c.notNull())
    .addColumn('dimension', 'varchar(16)', (c) => c.notNull())
    .addColumn('dim_value', 'varchar(256)', (c) => c.notNull())
    .addColumn('query_hash', 'varchar(256)', (c) => c.notNull())
    .addColumn('hour_rows', 'bigint', (c) => c.notNull().defaultTo(0));
  for (const column of COUNTERS_0021) t = t.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  t = t
    .addColumn('first_click_rr_sum', 'double precision', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_query_windows_pk', ['span', 'dimension', 'dim_value', 'query_hash']);
  // SQLite: rows stored in key order (a span's rows of one dimension value are read together).
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) t = t.modifyEnd(sql`without rowid`);
  await t.execute();
  // The queries page reads a span's queries with at least minSearches searches.
  await db.schema
    .createIndex('analytics_query_windows_searches_idx')
    .on('analytics_query_windows')
    .columns(['span', 'dimension', 'dim_value', 'searches'])
    .execute();
  await db.schema.alterTable('analytics_progress').addColumn('window_anchor', 'bigint').execute();
  await db.schema
    .alterTable('analytics_entities')
    .addColumn('last_received', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.updateTable('analytics_entities').set({ last_received: Date.now() }).execute();
  await db.schema.dropIndex('analytics_query_hours_query_idx').execute();
  await db.schema
    .createIndex('analytics_query_hours_query_idx')
    .on('analytics_query_hours')
    .columns(['dimension', 'dim_value', 'query_hash', 'hour', 'searches'])
    .execute();
  await db.schema
    .alterTable('analytics_total_hours')
    .addColumn('queries', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // How many upserts found the query hour row already there: 0 in what an upsert returns = it created the row.
  await db.schema
    .alterTable('analytics_query_hours')
    .addColumn('upserts', 'bigint', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('analytics_query_days')
    .addColumn('dimension', 'varchar(16)', (c) => c.notNull())
    .addColumn('dim_value', 'varchar(256)', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('query_hash', 'varchar(256)', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_query_days_pk', ['dimension', 'dim_value', 'day', 'query_hash'])
    .execute();
  await db.schema
    .createTable('analytics_total_days')
    .addColumn('dimension', 'varchar(16)', (c) => c.notNull())
    .addColumn('dim_value', 'varchar(256)', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('queries', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_total_days_pk', ['dimension', 'dim_value', 'day'])
    .execute();
  // `where true`: SQLite's INSERT … SELECT … ON CONFLICT needs a WHERE to parse.
  await sql`insert into analytics_total_hours (dimension, dim_value, hour, queries)
    select dimension, dim_value, hour, count(*) from analytics_query_hours where true group by dimension, dim_value, hour
    on conflict (dimension, dim_value, hour) do update set queries = excluded.queries`.execute(db);
  await sql`insert into analytics_query_days (dimension, dim_value, day, query_hash)
    select distinct dimension, dim_value, (hour / 86400000) * 86400000, query_hash from analytics_query_hours`.execute(db);
  await sql`insert into analytics_total_days (dimension, dim_value, day, queries)
    select dimension, dim_value, day, count(*) from analytics_query_days group by dimension, dim_value, day`.execute(db);
  await db.schema
    .createTable('analytics_result_slices')
    .addColumn('dimension', 'varchar(16)', (c) => c.notNull())
    .addColumn('dim_value', 'varchar(256)', (c) => c.notNull())
    .addColumn('query_hash', 'varchar(256)', (c) => c.notNull())
    .addColumn('hour', 'bigint', (c) => c.notNull())
    .addColumn('result_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('impressions', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_result_slices_pk', ['dimension', 'dim_value', 'query_hash', 'hour', 'result_id', 'position'])
    .execute();
  await db.schema.createIndex('analytics_entities_received_idx').on('analytics_entities').column('last_received').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_result_slices').ifExists().execute();
  await db.schema.dropTable('analytics_total_days').ifExists().execute();
  await db.schema.dropTable('analytics_query_days').ifExists().execute();
  await db.schema.alterTable('analytics_total_hours').dropColumn('queries').execute();
  await db.schema.alterTable('analytics_query_hours').dropColumn('upserts').execute();
  await db.schema.dropIndex('analytics_query_hours_query_idx').execute();
  await db.schema
    .createIndex('analytics_query_hours_query_idx')
    .on('analytics_query_hours')
    .columns(['dimension', 'dim_value', 'query_hash', 'hour'])
    .execute();
  await db.schema.dropIndex('analytics_entities_received_idx').ifExists().execute();
  await db.schema.alterTable('analytics_entities').dropColumn('last_received').execute();
  await db.schema.alterTable('analytics_progress').dropColumn('window_anchor').execute();
  await db.schema.dropTable('analytics_query_windows').ifExists().execute();
}
