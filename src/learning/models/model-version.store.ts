import type { ModelVersionReads, RetrainSchedule } from '../ports/model-registry.js';

/**
 * A model's trained versions and its training state (active version, last outcome, next
 * retrain). Versions are written by the training queue's `complete`, in the same transaction
 * as the job.
 */
export interface ModelVersionStore extends ModelVersionReads, RetrainSchedule {}
