import { sql, type Kysely } from 'kysely';

/**
 * Training for the learning module: the job queue (a row is both the lock across instances
 * and the record of a run), the versions each run produces (metrics, training window, data
 * counts and the model artifact as JSON text), per-model training state (active version,
 * next scheduled retrain) and uploaded LETOR datasets (one per ranker, the latest upload).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('training_jobs')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('model_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(16)', (c) => c.notNull())
    .addColumn('force', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_after', 'bigint', (c) => c.notNull())
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('version', 'integer')
    .execute();
  await db.schema.createIndex('training_jobs_claim_idx').on('training_jobs').columns(['status', 'run_after']).execute();
  await db.schema.createIndex('training_jobs_model_idx').on('training_jobs').columns(['model_id', 'requested_at']).execute();
  // At most one waiting and one running job per model, whatever instances race to enqueue or claim.
  await db.schema
    .createIndex('training_jobs_one_queued_uq')
    .on('training_jobs')
    .column('model_id')
    .unique()
    .where(sql.ref('status'), '=', 'queued')
    .execute();
  await db.schema
    .createIndex('training_jobs_one_running_uq')
    .on('training_jobs')
    .column('model_id')
    .unique()
    .where(sql.ref('status'), '=', 'running')
    .execute();

  await db.schema
    .createTable('model_versions')
    .addColumn('model_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('job_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('metrics', 'text', (c) => c.notNull())
    .addColumn('counts', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint')
    .addColumn('window_end', 'bigint')
    .addColumn('training_seconds', 'double precision', (c) => c.notNull())
    .addColumn('artifact', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('model_versions_pk', ['model_id', 'version'])
    .execute();

  await db.schema
    .createTable('model_training_state')
    .addColumn('model_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('active_version', 'integer')
    .addColumn('latest_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_outcome', 'text')
    .addColumn('next_retrain_at', 'bigint')
    .execute();
  await db.schema.createIndex('model_training_state_retrain_idx').on('model_training_state').column('next_retrain_at').execute();

  await db.schema
    .createTable('training_datasets')
    .addColumn('model_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('format', 'varchar(16)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('queries', 'integer', (c) => c.notNull())
    .addColumn('features', 'integer', (c) => c.notNull())
    .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['training_datasets', 'model_training_state', 'model_versions', 'training_jobs']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
