import { FakeFeedbackStore } from '../../../src/feedback/fake-feedback.store.js';
import { KyselyFeedbackStore } from '../../../src/feedback/feedback.kysely-store.js';
import type { FeedbackStore } from '../../../src/feedback/feedback.store.js';
import type { DatasetStore } from '../../../src/learning/datasets/dataset.store.js';
import { createFakeLearningStores } from '../../../src/learning/fake-learning.js';
import { createLearningStores } from '../../../src/learning/learning-services.js';
import type { ModelVersionStore } from '../../../src/learning/models/model-version.store.js';
import type { ModelStore } from '../../../src/learning/models/model.store.js';
import type { TrainingDataStore } from '../../../src/learning/training/training-data.store.js';
import type { CompletedRun, TrainingJobStore } from '../../../src/learning/training/training-job.store.js';
import type { DatabaseHandle } from '../../../src/storage/database.js';
import type { ModelRecord } from '../../../src/learning/model/model-types.js';
import type { NewJob } from '../../../src/learning/model/training-job.js';

/** Every store the learning module uses, and the feedback its training read model reads. */
export interface LearningWorld {
  models: ModelStore;
  jobs: TrainingJobStore;
  versions: ModelVersionStore;
  datasets: DatasetStore;
  feedback: FeedbackStore;
  trainingData: TrainingDataStore;
}

export const learningWorld = {
  kysely: (database: DatabaseHandle): LearningWorld => ({
    // The stores wired as learning.module.ts wires them (the model store queues through the job store's writer).
    ...createLearningStores(database),
    feedback: new KyselyFeedbackStore(database.db),
  }),
  fake: (): LearningWorld => {
    const feedback = new FakeFeedbackStore();
    return {
      ...createFakeLearningStores({
        feedback: () =>
          feedback.items.map((i) => ({
            id: i.id,
            queryId: i.queryId,
            queryHash: i.queryHash,
            resultId: i.resultId,
            position: i.position,
            action: i.userAction,
            eventTime: i.eventTime,
            rating: i.rating,
            dwellTime: i.dwellTime,
            deviceType: i.deviceType,
            searchType: i.searchType,
            language: i.language,
            category: i.category,
            viewportWidth: i.viewportWidth,
            viewportHeight: i.viewportHeight,
            extra: i.extraMetadata,
          })),
      }),
      feedback,
    };
  },
};

export const model = (id: string, over: Partial<ModelRecord> = {}): ModelRecord => ({
  id,
  name: `model ${id}`,
  type: 'click_model',
  status: 'pending',
  config: { algorithm: 'pbm', nested: { window: '30d' } },
  metrics: {},
  error: null,
  createdAt: 1000,
  updatedAt: 1000,
  ...over,
});

export const job = (id: string, modelId: string, at = 1000, over: Partial<NewJob> = {}): NewJob => ({
  id,
  modelId,
  reason: 'created',
  force: false,
  runAfter: at,
  requestedAt: at,
  ...over,
});

/** A successful run that writes a version with `outcome`. */
export function trainedRun(
  jobId: string,
  owner: string,
  at: number,
  outcome: 'activated' | 'rejected',
  nextRetrainAt: number | null = null,
): CompletedRun {
  const metrics = { logLikelihood: -1.5, counts: { sessions: 10 } };
  return {
    jobId,
    owner,
    finishedAt: at,
    jobStatus: 'succeeded',
    jobError: null,
    version: {
      modelId: 'ignored: the store takes the job’s model',
      jobId,
      outcome,
      message: outcome === 'rejected' ? 'worse' : null,
      metrics,
      counts: { sessions: 10 },
      windowStart: at - 100,
      windowEnd: at,
      trainingSeconds: 0.25,
      createdAt: at,
      artifact: `{"artifact":"${jobId}"}`,
    },
    model: { status: 'ready', error: null, ...(outcome === 'activated' ? { metrics } : {}) },
    outcome: { at, outcome, message: null },
    nextRetrainAt,
  };
}
