import type { Kysely } from 'kysely';

/**
 * Offline evaluations (issue 26): one row per POST /api/nous/learn/evaluations. The request and the
 * result are JSON text (their shape is the API's, versioned with it); the candidate's model and
 * version are columns of their own because the track record looks evaluations up by them. A large
 * window runs in the background: status `running` with `progress` until `done` or `failed`;
 * `heartbeat_at` moves while it runs, so a row whose process stopped reads as failed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('offline_evaluations')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', 'double precision', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(200)', (c) => c.notNull())
    .addColumn('candidate_model_id', 'varchar(64)')
    .addColumn('candidate_version', 'integer')
    .execute();
  // Newest-first keyset paging (created_at desc, id desc), and the track record's lookup by model.
  await db.schema.createIndex('offline_evaluations_created_idx').on('offline_evaluations').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('offline_evaluations_model_idx')
    .on('offline_evaluations')
    .columns(['candidate_model_id', 'candidate_version'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('offline_evaluations').execute();
}
