import type { JobReason, NewJob } from '../model/training-job.js';

// How the other learning sub-domains queue training runs. The training/ sub-domain fills these
// (learning.module.ts wires them): it owns the `training_jobs` rows, so it is their one writer.

/** Queues a run (TrainingJobStore). */
export interface JobQueue {
  /** 'already-queued' (nothing written) when the model has a job waiting. */
  enqueue(job: NewJob): Promise<'queued' | 'already-queued'>;
}

/** Builds the job a request queues, with the training service's clock and ids (TrainingService). */
export interface JobFactory {
  newJob(modelId: string, reason: JobReason, force?: boolean): NewJob;
}

/**
 * Writes a queued job inside a transaction the caller opened, and throws what the write throws
 * (a unique violation included). Registering a model uses it so that the model and its first
 * job are one transaction while the training-job store stays the only writer of the job rows.
 * `Tx` is the store's transaction: a Kysely transaction, or the fakes' shared tables.
 */
export type WriteQueuedJob<Tx> = (tx: Tx, job: NewJob) => Promise<void>;
