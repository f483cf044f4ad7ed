import type { ModelStatus } from '../model/model-types.js';
import type { LastOutcome, ModelVersion } from '../model/model-version.js';
import type { TrainingJob } from '../model/training-job.js';
import type { JobQueue } from '../ports/training-queue.js';

/** Everything that finishing a run writes, in one transaction. */
export interface CompletedRun {
  jobId: string;
  owner: string;
  finishedAt: number;
  jobStatus: 'succeeded' | 'failed';
  jobError: string | null;
  /** A new version (numbered latest + 1 by the store) and its artifact. */
  version?: Omit<ModelVersion, 'version'> & { artifact: string };
  /** The model row afterwards: status (updated_at moves only when it changes), metrics, error. */
  model: { status: ModelStatus; metrics?: Record<string, unknown>; error: string | null };
  outcome: Omit<LastOutcome, 'version'>;
  nextRetrainAt: number | null;
}

/** The training queue: a job row is both the lock across instances and the record of a run. */
export interface TrainingJobStore extends JobQueue {
  /** Queued and running jobs of a model. */
  openJobs(modelId: string): Promise<TrainingJob[]>;
  /**
   * Takes the next due job (queued and due, or running with an expired lease) for `owner`,
   * sets its lease and the model's status to `training`. Each job goes to one claimer.
   */
  claim(owner: string, now: number, leaseMs: number): Promise<TrainingJob | undefined>;
  /** False when the lease was lost (another instance took the job over). */
  extendLease(jobId: string, owner: string, until: number): Promise<boolean>;
  /**
   * Finishes a run in one transaction: the job, a new version (numbered latest + 1), the model's
   * training state and the model row. Returns the version number written (or null), or
   * 'lease-lost' when `owner` no longer holds the job. The version number is added to the
   * version's and the model's metrics as `version`.
   */
  complete(run: CompletedRun): Promise<{ version: number | null } | 'lease-lost'>;
}
