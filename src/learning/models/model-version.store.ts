import type { ModelVersionReads, RetrainSchedule } from '../ports/model-registry.js';
import type { LastOutcome, VersionOutcome } from '../model/model-version.js';

/** A version imported from a file (not trained here): written as one version, no training job. */
export interface ImportedVersionWrite {
  modelId: string;
  /** The import's own id, in the version's job_id column (no training job ran). */
  importId: string;
  outcome: VersionOutcome;
  message: string;
  metrics: Record<string, unknown>;
  counts: Record<string, number>;
  artifact: string;
  createdAt: number;
  /** When activated, the model record's metrics become these and its status ready. */
  modelMetrics?: Record<string, unknown>;
  lastOutcome: Omit<LastOutcome, 'version'>;
}

/**
 * A model's trained versions and its training state (active version, last outcome, next
 * retrain). Versions are written by the training queue's `complete`, in the same transaction
 * as the job, or by `insertImported` for a model file trained elsewhere.
 */
export interface ModelVersionStore extends ModelVersionReads, RetrainSchedule {
  /** Takes the next version number and writes the version, the state (active when `outcome` is activated) and the model, in one transaction. */
  insertImported(write: ImportedVersionWrite): Promise<{ version: number; activeBefore: number | null }>;
}
