/**
 * What the run decided: `activated` replaced the active version, `rejected` kept it; `imported` is a
 * version trained elsewhere and stored without activating (nothing judged it here).
 */
export const VERSION_OUTCOMES = ['activated', 'rejected', 'imported'] as const;
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
