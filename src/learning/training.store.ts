import type { ModelStatus } from './model.schemas.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
/** Why a job was queued: registration, `POST …/train`, the retrain schedule, a dataset upload. */
export type JobReason = 'created' | 'manual' | 'schedule' | 'dataset';

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

/** What the run decided: `activated` replaced the active version, `rejected` kept it. */
export type VersionOutcome = 'activated' | 'rejected';

export interface ModelVersion {
  modelId: string;
  version: number;
  jobId: string;
  outcome: VersionOutcome;
  /** Why a version was rejected (or forced in). */
  message: string | null;
  metrics: Record<string, unknown>;
  counts: Record<string, number>;
  windowStart: number | null;
  windowEnd: number | null;
  trainingSeconds: number;
  createdAt: number;
}

/** The last thing training did to a model, shown on the model record. */
export interface LastOutcome {
  at: number;
  version: number | null;
  outcome: VersionOutcome | 'failed' | 'skipped';
  message: string | null;
}

export interface TrainingState {
  modelId: string;
  activeVersion: number | null;
  latestVersion: number;
  lastOutcome: LastOutcome | null;
  nextRetrainAt: number | null;
}

export interface DatasetRecord {
  modelId: string;
  format: 'letor';
  content: string;
  bytes: number;
  rows: number;
  queries: number;
  features: number;
  uploadedAt: number;
}

export type DatasetInfo = Omit<DatasetRecord, 'content'>;

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

export interface TrainingStore {
  /** 'already-queued' (nothing written) when the model has a job waiting. */
  enqueue(job: NewJob): Promise<'queued' | 'already-queued'>;
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
   * Returns the version number written (or null), or 'lease-lost' when `owner` no longer holds
   * the job. The version number is added to the version's and the model's metrics as `version`.
   */
  complete(run: CompletedRun): Promise<{ version: number | null } | 'lease-lost'>;
  getState(modelId: string): Promise<TrainingState | undefined>;
  getStates(modelIds: readonly string[]): Promise<Map<string, TrainingState>>;
  /** Newest first, versions below `beforeVersion` when given. Artifacts are not read. */
  listVersions(modelId: string, limit: number, beforeVersion?: number): Promise<ModelVersion[]>;
  getArtifact(modelId: string, version: number): Promise<string | undefined>;
  /** Models whose scheduled retrain is due; their schedule is cleared (the job finishing sets the next). */
  takeDueRetrains(now: number, limit: number): Promise<string[]>;
  saveDataset(dataset: DatasetRecord): Promise<void>;
  getDataset(modelId: string): Promise<DatasetRecord | undefined>;
  getDatasetInfo(modelId: string): Promise<DatasetInfo | undefined>;
}
