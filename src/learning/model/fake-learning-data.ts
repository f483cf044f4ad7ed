import type { DatasetRecord } from './dataset-record.js';
import type { ModelVersion, TrainingState } from './model-version.js';
import type { ModelRecord } from './model-types.js';
import type { TrainingJob } from './training-job.js';

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
