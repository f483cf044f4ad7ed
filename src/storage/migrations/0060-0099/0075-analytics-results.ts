import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Search analytics, issue 12: one results table. analytics_result_hours (impressions and clicks per
 * query, hour, result and position over all traffic) and analytics_result_slices (the same per
 * dimension value) held the same counters; all traffic now lives in analytics_result_slices under
 * dimension '' and value '', as in the hour tables, so the fold writes one table with one statement
 * and the reads have one query. Existing all-traffic rows move over unchanged (the slices table
 * never held dimension ''), then analytics_result_hours goes.
 *
 * On SQLite the table is rebuilt WITHOUT ROWID: its primary key is the row's only access path, and
 * a rowid table keeps that key in a second B-tree, so each upsert of the fold wrote two.
 */
const COLUMNS = sql.raw('dimension, dim_value, query_hash, hour, result_id, position, impressions, clicks');

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await db.schema
      .createTable('analytics_result_slices_0075')
      .addColumn('dimension', 'varchar(16)', (c) => c.notNull())
      .addColumn('dim_value', 'varchar(256)', (c) => c.notNull())
      .addColumn('query_hash', 'varchar(256)', (c) => c.notNull())
      .addColumn('hour', 'bigint', (c) => c.notNull())
      .addColumn('result_id', 'varchar(256)', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('impressions', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('analytics_result_slices_pk', ['dimension', 'dim_value', 'query_hash', 'hour', 'result_id', 'position'])
      .modifyEnd(sql`without rowid`)
      .execute();
    await sql`insert into analytics_result_slices_0075 (${COLUMNS}) select ${COLUMNS} from analytics_result_slices`.execute(db);
    await db.schema.dropTable('analytics_result_slices').execute();
    await db.schema.alterTable('analytics_result_slices_0075').renameTo('analytics_result_slices').execute();
  }
  await sql`insert into analytics_result_slices (${COLUMNS})
    select '', '', query_hash, hour, result_id, position, impressions, clicks from analytics_result_hours`.execute(db);
  await db.schema.dropTable('analytics_result_hours').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
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
  await sql`insert into analytics_result_hours (query_hash, hour, result_id, position, impressions, clicks)
    select query_hash, hour, result_id, position, impressions, clicks from analytics_result_slices where dimension = ''`.execute(db);
  await db.deleteFrom('analytics_result_slices').where('dimension', '=', '').execute();
}
