import { sql, type Kysely } from 'kysely';

/** The per-unit sums an experiment's metrics are computed from (see the metric catalogue). */
export const UNIT_STAT_COLUMNS = [
  'impressions',
  'clicks',
  'searches',
  'searches_with_click',
  'rr_sum',
  'rated_items',
  'rating_sum',
  'dwell_sum',
  'dwell_count',
  'satisfied_clicks',
  'ttc_sum',
  'ttc_count',
  'scroll_sum',
  'scroll_count',
  'conversions',
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('experiments')
    .addColumn('phase', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('experiments').addColumn('conclusion', 'text').execute();

  await db.schema
    .createTable('experiment_phases')
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('seed', 'varchar(300)', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addPrimaryKeyConstraint('experiment_phases_pk', ['experiment_id', 'phase'])
    .execute();

  await db.schema
    .createTable('experiment_events')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'varchar(200)', (c) => c.notNull())
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .execute();
  await db.schema.createIndex('experiment_events_experiment_idx').on('experiment_events').columns(['experiment_id', 'id']).execute();

  let units = db.schema
    .createTable('experiment_units')
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('unit_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('variant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('exposed_at', 'bigint', (c) => c.notNull())
    .addColumn('covariates', 'text');
  for (const column of UNIT_STAT_COLUMNS) {
    units = units.addColumn(column, 'double precision', (c) => c.notNull().defaultTo(0));
  }
  // No secondary index: exposures are the hot write, and attribution finds units by primary key.
  await units.addPrimaryKeyConstraint('experiment_units_pk', ['experiment_id', 'phase', 'unit_id']).execute();

  await db.schema
    .createTable('experiment_searches')
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('unit_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('query_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('has_click', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('experiment_searches_pk', ['experiment_id', 'phase', 'unit_id', 'query_id'])
    .execute();
  await db.schema.createIndex('experiment_searches_unit_idx').on('experiment_searches').columns(['unit_id', 'query_id']).execute();

  // Attribution works through items not yet attributed; the partial index keeps that set cheap to find.
  await db.schema
    .alterTable('feedback_items')
    .addColumn('attributed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('feedback_items_unattributed_idx')
    .on('feedback_items')
    .column('id')
    .where(sql.ref('attributed'), '=', 0)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('feedback_items_unattributed_idx').ifExists().execute();
  await db.schema.alterTable('feedback_items').dropColumn('attributed').execute();
  for (const table of ['experiment_searches', 'experiment_units', 'experiment_events', 'experiment_phases']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable('experiments').dropColumn('conclusion').execute();
  await db.schema.alterTable('experiments').dropColumn('phase').execute();
}
