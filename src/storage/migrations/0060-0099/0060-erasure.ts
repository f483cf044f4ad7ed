import type { Kysely } from 'kysely';

/**
 * Erasing a session deletes its rows by unit id alone (the primary keys lead with experiment and
 * phase), so the two per-unit experiment tables get an index on unit_id: a privacy request then
 * touches the session's rows, not the whole table. experiment_searches and the feedback tables
 * already have one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Idempotency records remember their submission's session, so erasure can forget keys that a
  // client built from the session id (records stored before this migration expire within a day).
  await db.schema.alterTable('idempotency_keys').addColumn('session_id', 'varchar(255)').execute();
  await db.schema.createIndex('idempotency_keys_session_idx').on('idempotency_keys').column('session_id').execute();
  await db.schema.createIndex('experiment_units_unit_idx').on('experiment_units').column('unit_id').execute();
  await db.schema.createIndex('experiment_unit_covariates_unit_idx').on('experiment_unit_covariates').column('unit_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('idempotency_keys_session_idx').execute();
  await db.schema.alterTable('idempotency_keys').dropColumn('session_id').execute();
  await db.schema.dropIndex('experiment_unit_covariates_unit_idx').execute();
  await db.schema.dropIndex('experiment_units_unit_idx').execute();
}
