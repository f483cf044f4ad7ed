import type { DatasetRecord } from '../datasets/dataset.store.js';
import type { ModelVersion, TrainingState } from '../models/model-version.store.js';
import type { ModelRecord } from '../models/model.store.js';
import type { TrainingJob } from '../training/training-job.store.js';

/**
 * The in-memory tables the learning fakes share, as the Kysely stores share one database (a model
 * and its first job are written together; completing a job writes the version, the training
 * state and the model). Test code only: excluded from the build like every fake.
 */
export class FakeLearningData {
  readonly models = new Map<string, ModelRecord>();
  readonly jobs = new Map<string, TrainingJob>();
  readonly versions: (ModelVersion & { artifact: string })[] = [];
  readonly states = new Map<string, TrainingState>();
  readonly datasets = new Map<string, DatasetRecord>();
}
