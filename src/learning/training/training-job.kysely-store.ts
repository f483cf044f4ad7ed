import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { DatabaseCapabilities } from '../../storage/database.js';
import type { Database, TrainingJobTable } from '../../storage/schema.js';
import { isUniqueViolation } from '../../storage/sql-errors.js';
import type { CompletedRun, TrainingJobStore } from './training-job.store.js';
import type { LastOutcome } from '../model/model-version.js';
import type { JobReason, JobStatus, NewJob, TrainingJob } from '../model/training-job.js';
import type { WriteQueuedJob } from '../ports/training-queue.js';

/** A job a worker may take (`training_jobs as j`): queued and due, or running with its lease run out. */
const claimable = (now: number) => (w: ExpressionBuilder<{ j: TrainingJobTable }, 'j'>) =>
  w.or([
    w.and([w('j.status', '=', 'queued'), w('j.run_after', '<=', now)]),
    w.and([w('j.status', '=', 'running'), w('j.lease_expires_at', '<', now)]),
  ]);

function jobFromRow(row: Selectable<TrainingJobTable>): TrainingJob {
  return {
    id: row.id,
    modelId: row.model_id,
    status: row.status as JobStatus,
    reason: row.reason as JobReason,
    force: row.force === 1,
    runAfter: row.run_after,
    requestedAt: row.requested_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    attempts: row.attempts,
    error: row.error,
    version: row.version,
  };
}

/**
 * The one INSERT of a queued job. `enqueue` runs it on its own; registering a model runs it
 * inside the model's transaction (learning.module.ts hands it to the model store), so the
 * model and its first job commit together and this store stays the one writer of the rows.
 */
export const writeQueuedJob: WriteQueuedJob<Kysely<Database>> = async (db, job) => {
  await db
    .insertInto('training_jobs')
    .values({
      id: job.id,
      model_id: job.modelId,
      status: 'queued',
      reason: job.reason,
      force: job.force ? 1 : 0,
      run_after: job.runAfter,
      requested_at: job.requestedAt,
    })
    .execute();
};

export class KyselyTrainingJobStore implements TrainingJobStore {
  constructor(
    private readonly db: Kysely<Database>,
    /** The claim locks the chosen row with SKIP LOCKED where it can, so concurrent instances each get a different job. */
    private readonly capabilities: Pick<DatabaseCapabilities, 'supportsSkipLocked'>,
  ) {}

  async enqueue(job: NewJob): Promise<'queued' | 'already-queued'> {
    try {
      await writeQueuedJob(this.db, job);
      return 'queued';
    } catch (error) {
      if (isUniqueViolation(error)) return 'already-queued';
      throw error;
    }
  }

  async openJobs(modelId: string): Promise<TrainingJob[]> {
    const rows = await this.db
      .selectFrom('training_jobs')
      .selectAll()
      .where('model_id', '=', modelId)
      .where('status', 'in', ['queued', 'running'])
      .orderBy('requested_at')
      .execute();
    return rows.map(jobFromRow);
  }

  async claim(owner: string, now: number, leaseMs: number): Promise<TrainingJob | undefined> {
    // The queue is polled every second and is almost always empty: a read answers that, so the
    // idle poll takes no write transaction (on SQLite one held the connection, and the event loop,
    // for several milliseconds a second, which search-time calls felt in their tail).
    const due = await this.db.selectFrom('training_jobs as j').select('j.id').where(claimable(now)).limit(1).executeTakeFirst();
    if (!due) return undefined;
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('training_jobs')
          .set({ status: 'running', lease_owner: owner, lease_expires_at: now + leaseMs, started_at: now, attempts: sql`attempts + 1` })
          .where('id', '=', (eb) =>
            eb
              .selectFrom('training_jobs as j')
              .select('j.id')
              .where(claimable(now))
              // A queued job waits while its model has another job running.
              .where((w) =>
                w.not(
                  w.exists(
                    w
                      .selectFrom('training_jobs as r')
                      .select('r.id')
                      .whereRef('r.model_id', '=', 'j.model_id')
                      .where('r.status', '=', 'running')
                      .whereRef('r.id', '<>', 'j.id'),
                  ),
                ),
              )
              .orderBy('j.run_after')
              .orderBy('j.id')
              .limit(1)
              .$if(this.capabilities.supportsSkipLocked, (q) => q.forUpdate().skipLocked()),
          )
          .returningAll()
          .executeTakeFirst();
        if (!row) return undefined;
        await trx
          .updateTable('models')
          .set({ status: 'training', updated_at: sql<number>`case when status = 'training' then updated_at else ${now} end` })
          .where('id', '=', row.model_id)
          .execute();
        return jobFromRow(row);
      });
    } catch (error) {
      // Two instances raced for two jobs of one model: the second gives way.
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  async extendLease(jobId: string, owner: string, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('training_jobs')
      .set({ lease_expires_at: until })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async complete(run: CompletedRun): Promise<{ version: number | null } | 'lease-lost'> {
    return this.db.transaction().execute(async (trx) => {
      const job = await trx
        .selectFrom('training_jobs')
        .select(['model_id', 'lease_owner', 'status'])
        .where('id', '=', run.jobId)
        .executeTakeFirst();
      if (!job || job.status !== 'running' || job.lease_owner !== run.owner) return 'lease-lost' as const;
      const modelId = job.model_id;
      await trx
        .insertInto('model_training_state')
        .values({ model_id: modelId, active_version: null, latest_version: 0, last_outcome: null, next_retrain_at: null })
        .onConflict((oc) => oc.column('model_id').doNothing())
        .execute();
      const state = await trx.selectFrom('model_training_state').selectAll().where('model_id', '=', modelId).executeTakeFirstOrThrow();
      let version: number | null = null;
      if (run.version) {
        version = state.latest_version + 1;
        const v = run.version;
        await trx
          .insertInto('model_versions')
          .values({
            model_id: modelId,
            version,
            job_id: run.jobId,
            outcome: v.outcome,
            message: v.message,
            metrics: JSON.stringify({ version, ...v.metrics }),
            counts: JSON.stringify(v.counts),
            window_start: v.windowStart,
            window_end: v.windowEnd,
            training_seconds: v.trainingSeconds,
            artifact: v.artifact,
            created_at: v.createdAt,
          })
          .execute();
      }
      const outcome: LastOutcome = { ...run.outcome, version };
      await trx
        .updateTable('model_training_state')
        .set({
          latest_version: version ?? state.latest_version,
          active_version: run.version?.outcome === 'activated' ? version : state.active_version,
          last_outcome: JSON.stringify(outcome),
          next_retrain_at: run.nextRetrainAt,
        })
        .where('model_id', '=', modelId)
        .execute();
      await trx
        .updateTable('training_jobs')
        .set({
          status: run.jobStatus,
          error: run.jobError,
          finished_at: run.finishedAt,
          version,
          lease_owner: null,
          lease_expires_at: null,
        })
        .where('id', '=', run.jobId)
        .execute();
      await trx
        .updateTable('models')
        .set({
          status: run.model.status,
          error: run.model.error,
          updated_at: sql<number>`case when status = ${run.model.status} then updated_at else ${run.finishedAt} end`,
          ...(run.model.metrics ? { metrics: JSON.stringify({ version, ...run.model.metrics }) } : {}),
        })
        .where('id', '=', modelId)
        .execute();
      return { version };
    });
  }
}
