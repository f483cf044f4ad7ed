import type { Clock } from '../common/clock.js';
import { FakeAliasStore } from './aliases/fake-alias.store.js';
import { FakeDatasetStore } from './datasets/fake-dataset.store.js';
import type { WindowRow } from './evaluations/evaluation.store.js';
import { FakeEvaluationStore } from './evaluations/fake-evaluation.store.js';
import type { DatasetService } from './datasets/dataset.service.js';
import {
  createAliasService,
  createDatasetService,
  createEvaluationService,
  createModelService,
  createServingService,
  createTrainingService,
  type LearningStores,
} from './learning-services.js';
import { DEFAULT_EVALUATION_OPTIONS, type EvaluationOptions, type EvaluationService } from './evaluations/evaluation.service.js';
import { NO_ONLINE_OUTCOMES, type OnlineOutcomes } from './ports/online-outcomes.js';
import { FakeLearningData } from './model/fake-learning-data.js';
import { FakeModelVersionStore } from './models/fake-model-version.store.js';
import { FakeModelStore } from './models/fake-model.store.js';
import type { ModelService } from './models/model.service.js';
import type { JobFactory } from './ports/training-queue.js';
import { FakeTrainingDataStore, type TrainingFeedbackRow } from './training/fake-training-data.store.js';
import { FakeTrainingJobStore, writeFakeQueuedJob } from './training/fake-training-job.store.js';
import type { TrainingRunner } from './training/training-pool.js';
import { DEFAULT_TRAINING_OPTIONS, type TrainingOptions, type TrainingService } from './training/training.service.js';

// The createFake…Service() twins of learning-services.ts (Unleash's createFakeFeature…Service):
// the same wiring over the in-memory stores, so a unit test builds a service in one call.
// Test code only: excluded from the build like every fake.

/** The fakes share one set of tables (`data`), as the Kysely stores share one database. */
export interface FakeLearningStores extends LearningStores {
  data: FakeLearningData;
}

export function createFakeLearningStores({
  data = new FakeLearningData(),
  feedback = () => [],
  evaluationFeedback = () => [],
}: {
  data?: FakeLearningData;
  /** The feedback items the training read model sees (the feedback module owns them). */
  feedback?: () => readonly TrainingFeedbackRow[];
  /** The feedback items offline evaluations read (with their sessions). */
  evaluationFeedback?: () => readonly (WindowRow & { id: string })[];
} = {}): FakeLearningStores {
  return {
    data,
    models: new FakeModelStore(data, writeFakeQueuedJob),
    versions: new FakeModelVersionStore(data),
    jobs: new FakeTrainingJobStore(data),
    datasets: new FakeDatasetStore(data),
    trainingData: new FakeTrainingDataStore(feedback),
    aliases: new FakeAliasStore(),
    evaluations: new FakeEvaluationStore(evaluationFeedback),
  };
}

export function createFakeModelService({
  clock,
  stores = createFakeLearningStores(),
}: {
  clock: Clock;
  stores?: LearningStores;
}): ModelService {
  return createModelService(stores, clock);
}

export function createFakeTrainingService({
  clock,
  runner,
  options,
  stores = createFakeLearningStores(),
}: {
  clock: Clock;
  runner: TrainingRunner;
  options?: Partial<TrainingOptions>;
  stores?: LearningStores;
}): TrainingService {
  return createTrainingService(stores, { clock, runner, options: { ...DEFAULT_TRAINING_OPTIONS, owner: 'test', ...options } });
}

export function createFakeDatasetService({
  clock,
  training,
  maxBytes,
  stores = createFakeLearningStores(),
}: {
  clock: Clock;
  training: JobFactory;
  maxBytes?: number;
  stores?: LearningStores;
}): DatasetService {
  return createDatasetService(stores, { clock, training, maxBytes });
}

export function createFakeEvaluationService({
  clock,
  outcomes = NO_ONLINE_OUTCOMES,
  options,
  stores = createFakeLearningStores(),
}: {
  clock: Clock;
  outcomes?: OnlineOutcomes;
  options?: Partial<EvaluationOptions>;
  stores?: LearningStores;
}): EvaluationService {
  return createEvaluationService(stores, {
    clock,
    aliases: createAliasService(stores, clock),
    serving: createServingService(stores),
    outcomes,
    // In memory the estimation stays on the caller's thread.
    options: { ...DEFAULT_EVALUATION_OPTIONS, thread: false, ...options },
  });
}
