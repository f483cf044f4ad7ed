import type { Kysely } from 'kysely';

/**
 * Slices (issue 13): each unit's slice values, fixed by its first attributed feedback item, and per
 * slice value, variant and metric the units and metric sums, kept exactly once by attribution like the
 * variant sums, so a results read by dimension is O(variants × slices × metrics) rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('experiment_unit_slices')
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('unit_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('slice_values', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('experiment_unit_slices_pk', ['experiment_id', 'phase', 'unit_id'])
    .execute();
  let sums = db.schema
    .createTable('experiment_slice_sums')
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('dimension', 'varchar(32)', (c) => c.notNull())
    .addColumn('value', 'varchar(128)', (c) => c.notNull())
    .addColumn('variant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('metric', 'varchar(32)', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull());
  for (const column of ['sx', 'sy', 'sxx', 'syy', 'sxy']) sums = sums.addColumn(column, 'double precision', (c) => c.notNull());
  await sums
    .addPrimaryKeyConstraint('experiment_slice_sums_pk', ['experiment_id', 'phase', 'dimension', 'value', 'variant_id', 'metric'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('experiment_slice_sums').ifExists().execute();
  await db.schema.dropTable('experiment_unit_slices').ifExists().execute();
}
