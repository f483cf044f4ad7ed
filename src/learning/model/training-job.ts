export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** Why a job was queued: registration, `POST …/train`, the retrain schedule, a dataset upload. */
export const JOB_REASONS = ['created', 'manual', 'schedule', 'dataset'] as const;
export type JobReason = (typeof JOB_REASONS)[number];

export interface TrainingJob {
  id: string;
  modelId: string;
  status: JobStatus;
  reason: JobReason;
  /** Activate the new version even when it is worse than the active one. */
  force: boolean;
  runAfter: number;
  requestedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  attempts: number;
  error: string | null;
  version: number | null;
}

export type NewJob = Pick<TrainingJob, 'id' | 'modelId' | 'reason' | 'force' | 'runAfter' | 'requestedAt'>;
