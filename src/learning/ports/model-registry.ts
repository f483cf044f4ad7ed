import type { ModelRecord } from '../model/model-types.js';
import type { ModelVersion, TrainingState } from '../model/model-version.js';

// What the other learning sub-domains read of the registry. The models/ stores implement these
// (their interfaces extend them) and learning.module.ts hands them over.

/** A registered model by id (ModelStore). */
export interface ModelLookup {
  get(id: string): Promise<ModelRecord | undefined>;
}

/** A model's trained versions and its training state (ModelVersionStore). */
export interface ModelVersionReads {
  getState(modelId: string): Promise<TrainingState | undefined>;
  getStates(modelIds: readonly string[]): Promise<Map<string, TrainingState>>;
  /** Newest first, versions below `beforeVersion` when given. Artifacts are not read. */
  listVersions(modelId: string, limit: number, beforeVersion?: number): Promise<ModelVersion[]>;
  getArtifact(modelId: string, version: number): Promise<string | undefined>;
}

/** The retrain schedule kept in each model's training state (ModelVersionStore). */
export interface RetrainSchedule {
  /** Models whose scheduled retrain is due; their schedule is cleared (the job finishing sets the next). */
  takeDueRetrains(now: number, limit: number): Promise<string[]>;
}
