import type { Kysely } from 'kysely';

/**
 * Light exploration on POST /api/nous/rank (issue 26 §1): its one settings row, the audit trail of
 * its changes, and every explored list as it was shown with its propensity.
 *
 * - `rank_exploration_settings`: a single row (id = 'rank'); no row means off (share 0, depth 10).
 *   `enabled_at` is when the share last went from 0 to above 0, so "lists shown since enabled" counts
 *   from there.
 * - `rank_exploration_events`: every change, who and when, the settings before and after (JSON).
 * - `exploration_lists`: one row per explored search (unit, queryId), the shown list (JSON array of
 *   result ids, rank 1 first), the swapped 1-based ranks, the propensity given the unit is explored,
 *   the share then in force, and the time. A retried call shows the same list and is stored once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rank_exploration_settings')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('share', 'double precision', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('method', 'varchar(16)', (c) => c.notNull())
    .addColumn('enabled_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(200)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('rank_exploration_events')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'varchar(200)', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('exploration_lists')
    .addColumn('unit_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('query_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('query_hash', 'varchar(256)')
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('swapped_from', 'integer', (c) => c.notNull())
    .addColumn('swapped_to', 'integer', (c) => c.notNull())
    .addColumn('propensity', 'double precision', (c) => c.notNull())
    .addColumn('share', 'double precision', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('exploration_lists_pk', ['unit_id', 'query_id'])
    .execute();
  // "Lists shown since enabled" and harvesting read by time.
  await db.schema.createIndex('exploration_lists_recorded_idx').on('exploration_lists').columns(['recorded_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('exploration_lists').execute();
  await db.schema.dropTable('rank_exploration_events').execute();
  await db.schema.dropTable('rank_exploration_settings').execute();
}
