import type { Kysely } from 'kysely';

/**
 * Variant-level sufficient statistics per exposure day, kept up to date as units are exposed
 * (units) and as their feedback is attributed (metric sums), so that an experiment's results
 * read O(variants × days × metrics) rows instead of scanning its units.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('experiment_variant_units')
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('variant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('experiment_variant_units_pk', ['experiment_id', 'phase', 'variant_id', 'day'])
    .execute();

  let sums = db.schema
    .createTable('experiment_variant_sums')
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('variant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('metric', 'varchar(32)', (c) => c.notNull());
  for (const column of ['sx', 'sy', 'sxx', 'syy', 'sxy']) sums = sums.addColumn(column, 'double precision', (c) => c.notNull());
  await sums.addPrimaryKeyConstraint('experiment_variant_sums_pk', ['experiment_id', 'phase', 'variant_id', 'day', 'metric']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('experiment_variant_sums').ifExists().execute();
  await db.schema.dropTable('experiment_variant_units').ifExists().execute();
}
