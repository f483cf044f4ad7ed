import type { Kysely } from 'kysely';

/**
 * Pre-exposure covariates for CUPED, one row per unit and metric: x / y is the unit's value of
 * the metric before exposure (y = 1 for a plain value sent with assign). job_state keeps the
 * watermarks of incremental jobs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('experiment_unit_covariates')
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('unit_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('metric', 'varchar(64)', (c) => c.notNull())
    .addColumn('x', 'double precision', (c) => c.notNull())
    .addColumn('y', 'double precision', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addPrimaryKeyConstraint('experiment_unit_covariates_pk', ['experiment_id', 'phase', 'unit_id', 'metric'])
    .execute();

  await db.schema
    .createTable('job_state')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_state').ifExists().execute();
  await db.schema.dropTable('experiment_unit_covariates').ifExists().execute();
}
