import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../common/clock.js';
import type { PeriodicTask, TaskLogger } from '../jobs/periodic-task.js';
import type { DatabaseHandle } from '../storage/database.js';
import { KyselyModelStore } from './model.kysely-store.js';
import { modelRoutes } from './model.routes.js';
import { ModelService } from './model.service.js';

/**
 * Everything the learning half of the service exposes to the rest: its services, its routes,
 * its background tasks and what must close at shutdown. The container, the app and the job
 * runner only know this boundary.
 */
export interface LearningModule {
  modelService: ModelService;
  routes: FastifyPluginAsync;
  /** Periodic tasks (training queue, scheduled retraining), started by the background jobs. */
  tasks(log: TaskLogger): PeriodicTask[];
  /** Releases worker threads and anything else the module holds. */
  close(): Promise<void>;
}

export interface LearningDependencies {
  database: DatabaseHandle;
  clock: Clock;
}

export function createLearningModule({ database, clock }: LearningDependencies): LearningModule {
  const modelService = new ModelService(new KyselyModelStore(database.db), clock);
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(modelRoutes, { modelService });
  };
  return { modelService, routes, tasks: () => [], close: async () => undefined };
}
