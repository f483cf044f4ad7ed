import { hostname } from 'node:os';
import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { PeriodicTask, type TaskLogger } from '../jobs/periodic-task.js';
import type { DatabaseHandle } from '../storage/database.js';
import { DATASET_MAX_BYTES, DatasetService } from './dataset.service.js';
import { datasetRoutes } from './dataset.routes.js';
import { KyselyModelStore } from './model.kysely-store.js';
import { modelRoutes } from './model.routes.js';
import { ModelService } from './model.service.js';
import { servingRoutes } from './serving.routes.js';
import { ServingService } from './serving.service.js';
import { KyselyTrainingDataStore } from './training-data.kysely-store.js';
import { PiscinaTrainingRunner, type TrainingRunner } from './training-pool.js';
import { KyselyTrainingStore } from './training.kysely-store.js';
import { trainingRoutes } from './training.routes.js';
import { DEFAULT_TRAINING_OPTIONS, TrainingService, type TrainingOptions } from './training.service.js';

/**
 * Everything the learning half of the service exposes to the rest: its services, its routes,
 * its background tasks and what must close at shutdown. The container, the app and the job
 * runner only know this boundary.
 */
/** Wraps a job run so its count and duration by outcome are recorded (the metrics registry's observeJob). */
export type ObserveJob = <T>(name: string, run: () => Promise<T>) => Promise<T>;

export interface LearningModule {
  modelService: ModelService;
  trainingService: TrainingService;
  servingService: ServingService;
  routes: FastifyPluginAsync;
  /** One pass of the schedule task: registers the `default` model once, queues due retrains. */
  scheduleTick(): Promise<void>;
  /** Periodic tasks (training queue, scheduled retraining), started by the background jobs. */
  tasks(log: TaskLogger, observe?: ObserveJob): PeriodicTask[];
  /** Releases worker threads and anything else the module holds. */
  close(): Promise<void>;
}

export interface LearningDependencies {
  database: DatabaseHandle;
  clock: Clock;
  /** Tests and benchmarks may pass their own runner or options. */
  runner?: TrainingRunner;
  training?: Partial<TrainingOptions>;
  intervals?: { queueMs: number; scheduleMs: number };
}

/** The model every installation starts with, so GET /api/nous/learn/models/default describes live learning. */
export const DEFAULT_MODEL = {
  modelId: 'default',
  name: 'default',
  type: 'click_model',
  config: { algorithm: 'pbm', retrainEvery: '24h', window: '30d' },
} as const;

export function createLearningModule({ database, clock, runner, training, intervals }: LearningDependencies): LearningModule {
  const modelStore = new KyselyModelStore(database.db);
  // PostgreSQL instances share the queue: claims use FOR UPDATE SKIP LOCKED (see the store).
  const trainingStore = new KyselyTrainingStore(database.db, { skipLocked: database.dialect === 'postgres' });
  const trainingRunner = runner ?? new PiscinaTrainingRunner();
  const modelService = new ModelService(modelStore, trainingStore, clock);
  const trainingService = new TrainingService(modelStore, trainingStore, new KyselyTrainingDataStore(database.db), trainingRunner, clock, {
    ...DEFAULT_TRAINING_OPTIONS,
    owner: `${hostname()}:${process.pid}:${newId()}`,
    ...training,
  });
  const servingService = new ServingService(modelStore, trainingStore);
  const datasetService = new DatasetService(modelStore, trainingStore, trainingService, clock);
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(modelRoutes, { modelService });
    await app.register(trainingRoutes, { trainingService });
    await app.register(servingRoutes, { servingService });
    await app.register(datasetRoutes, { datasetService, maxBytes: DATASET_MAX_BYTES });
  };

  let stopping = false;
  let draining: Promise<unknown> | undefined;
  let defaultEnsured = false;
  const scheduleTick = async (): Promise<void> => {
    if (!defaultEnsured) {
      await modelService.ensure({ ...DEFAULT_MODEL, config: { ...DEFAULT_MODEL.config } });
      defaultEnsured = true;
    }
    await trainingService.scheduleDue();
  };
  const tasks = (log: TaskLogger, observe: ObserveJob = (_name, run) => run()): PeriodicTask[] => [
    new PeriodicTask('learning-schedule', intervals?.scheduleMs ?? 5000, () => observe('learning-schedule', scheduleTick), log),
    // Starts draining the queue and returns at once, so stopping the jobs never waits for a
    // fit; a run cut short by shutdown is taken over by the next claimer once its lease ends.
    new PeriodicTask(
      'training-queue',
      intervals?.queueMs ?? 1000,
      async () => {
        draining ??= observe('training', () => trainingService.runUntilIdle(() => stopping))
          .catch((error: unknown) => log.error({ err: error, task: 'training-queue' }, 'training queue failed'))
          .finally(() => (draining = undefined));
      },
      log,
    ),
  ];

  return {
    modelService,
    trainingService,
    servingService,
    routes,
    scheduleTick,
    tasks,
    close: async () => {
      stopping = true;
      trainingService.stop();
      await trainingRunner.close();
      await draining;
    },
  };
}
