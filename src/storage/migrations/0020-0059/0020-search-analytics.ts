import { sql, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Search analytics (src/analytics): hourly aggregates per query and per dimension value, kept up
 * to date from feedback_items exactly once per item, so that the analytics pages read
 * O(hours × queries) rows instead of scanning raw feedback.
 *
 * - feedback_items.analytics_done marks an item folded in (a partial index keeps the backlog
 *   cheap to find, as `attributed` does for attribution);
 * - analytics_entities holds the folded state of each search, session and (session, query) pair,
 *   so a later item of the same search retracts its old contribution and adds the new one;
 * - analytics_query_hours / analytics_total_hours hold the additive counters per hour, per
 *   dimension value ('' = all traffic), per query (query hours) or over all queries (total hours);
 * - analytics_result_hours holds impressions and clicks per query, result and position;
 * - analytics_query_texts is a query's display text; analytics_progress the data's freshness.
 */
const ANALYTICS_COUNTERS_0020 = [
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
  await db.schema
    .alterTable('feedback_items')
    .addColumn('analytics_done', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('feedback_items_analytics_backlog_idx')
    .on('feedback_items')
    .column('id')
    .where(sql.ref('analytics_done'), '=', 0)
    .execute();

  await db.schema
    .createTable('analytics_entities')
    .addColumn('key', 'varchar(600)', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .execute();

  const withCounters = (t: CreateTableBuilder<string, string>) => {
    for (const column of ANALYTICS_COUNTERS_0020) t = t.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
    return t.addColumn('first_click_rr_sum', 'double precision', (c) => c.notNull().defaultTo(0));
  };
  await withCounters(
    db.schema
      .createTable('analytics_total_hours')
      .addColumn('dimension', 'varchar(16)', (c) => c.notNull())
      .addColumn('dim_value', 'varchar(256)', (c) => c.notNull())
      .addColumn('hour', 'bigint', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('analytics_total_hours_pk', ['dimension', 'dim_value', 'hour'])
    .execute();
  await withCounters(
    db.schema
      .createTable('analytics_query_hours')
      .addColumn('dimension', 'varchar(16)', (c) => c.notNull())
      .addColumn('dim_value', 'varchar(256)', (c) => c.notNull())
      .addColumn('hour', 'bigint', (c) => c.notNull())
      .addColumn('query_hash', 'varchar(256)', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('analytics_query_hours_pk', ['dimension', 'dim_value', 'hour', 'query_hash'])
    .execute();
  await db.schema
    .createIndex('analytics_query_hours_query_idx')
    .on('analytics_query_hours')
    .columns(['dimension', 'dim_value', 'query_hash', 'hour'])
    .execute();

  await db.schema
    .createTable('analytics_result_hours')
    .addColumn('query_hash', 'varchar(256)', (c) => c.notNull())
    .addColumn('hour', 'bigint', (c) => c.notNull())
    .addColumn('result_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('impressions', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_result_hours_pk', ['query_hash', 'hour', 'result_id', 'position'])
    .execute();

  await db.schema
    .createTable('analytics_query_texts')
    .addColumn('query_hash', 'varchar(256)', (c) => c.primaryKey())
    .addColumn('query_text', 'varchar(512)', (c) => c.notNull())
    .addColumn('source_id', 'varchar(26)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('analytics_progress')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('fresh_as_of', 'bigint')
    .execute();
  await db.insertInto('analytics_progress').values({ id: 1, fresh_as_of: null }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'analytics_progress',
    'analytics_query_texts',
    'analytics_result_hours',
    'analytics_total_hours',
    'analytics_query_hours',
    'analytics_entities',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropIndex('feedback_items_analytics_backlog_idx').ifExists().execute();
  await db.schema.alterTable('feedback_items').dropColumn('analytics_done').execute();
}
