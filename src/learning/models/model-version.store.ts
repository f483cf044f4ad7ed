/** What the run decided: `activated` replaced the active version, `rejected` kept it. */
export const VERSION_OUTCOMES = ['activated', 'rejected'] as const;
export type VersionOutcome = (typeof VERSION_OUTCOMES)[number];
/** The last thing training did to a model: a version's outcome, a failure, or no data to learn from. */
export const TRAINING_OUTCOMES = [...VERSION_OUTCOMES, 'failed', 'skipped'] as const;

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
  outcome: (typeof TRAINING_OUTCOMES)[number];
  message: string | null;
}

export interface TrainingState {
  modelId: string;
  activeVersion: number | null;
  latestVersion: number;
  lastOutcome: LastOutcome | null;
  nextRetrainAt: number | null;
}

/**
 * A model's trained versions and its training state (active version, last outcome, next
 * retrain). Versions are written by the training queue's `complete`, in the same transaction
 * as the job.
 */
export interface ModelVersionStore {
  getState(modelId: string): Promise<TrainingState | undefined>;
  getStates(modelIds: readonly string[]): Promise<Map<string, TrainingState>>;
  /** Newest first, versions below `beforeVersion` when given. Artifacts are not read. */
  listVersions(modelId: string, limit: number, beforeVersion?: number): Promise<ModelVersion[]>;
  getArtifact(modelId: string, version: number): Promise<string | undefined>;
  /** Models whose scheduled retrain is due; their schedule is cleared (the job finishing sets the next). */
  takeDueRetrains(now: number, limit: number): Promise<string[]>;
}
