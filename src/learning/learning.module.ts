import { hostname } from 'node:os';
import type { Clock } from '../common/clock.js';
import type { DomainEventLog } from '../common/domain-events.js';
import { newId } from '../common/ids.js';
import type { DomainModule } from '../common/module.js';
import type { ObserveJob, TaskSpec } from '../common/periodic-task.js';
import type { DatabaseHandle } from '../storage/database.js';
import { writeAliasMove } from './aliases/alias.kysely-store.js';
import { aliasRoutes } from './aliases/alias.routes.js';
import type { AliasMoveRequest, AliasService, RankableCheck } from './aliases/alias.service.js';
import type { RankBody } from './serving/serving.schemas.js';
import { datasetRoutes } from './datasets/dataset.routes.js';
import { DATASET_MAX_BYTES, type DatasetService } from './datasets/dataset.service.js';
import {
  createAliasService,
  createDatasetService,
  createEvaluationService,
  createLearningStores,
  createModelService,
  createServingService,
  createTrainingService,
  type LearningStores,
} from './learning-services.js';
import { evaluationRoutes } from './evaluations/evaluation.routes.js';
import { DEFAULT_EVALUATION_OPTIONS, type EvaluationOptions, type EvaluationService } from './evaluations/evaluation.service.js';
import { modelRoutes } from './models/model.routes.js';
import { NO_ONLINE_OUTCOMES, type OnlineOutcomes } from './ports/online-outcomes.js';
import type { ModelService } from './models/model.service.js';
import { servingRoutes } from './serving/serving.routes.js';
import type { ServingService } from './serving/serving.service.js';
import { ServingCache } from './serving/serving-cache.js';
import { servingRevision } from './serving/serving-revision.kysely-store.js';
import { PiscinaTrainingRunner, type TrainingRunner } from './training/training-pool.js';
import { trainingRoutes } from './training/training.routes.js';
import { DEFAULT_TRAINING_OPTIONS, type TrainingOptions, type TrainingService } from './training/training.service.js';

export type { OnlineOutcome, OnlineOutcomes } from './ports/online-outcomes.js';

export interface LearningServices {
  modelService: ModelService;
  trainingService: TrainingService;
  servingService: ServingService;
  datasetService: DatasetService;
  aliasService: AliasService;
  evaluationService: EvaluationService;
}

/** What other modules may ask of the registry (the container hands it to experiments as a port). */
export interface ModelCatalogPort {
  resolveRankable(modelId: string, version?: number): Promise<RankableCheck>;
  score(modelId: string, version: number, input: RankBody): Promise<{ scores: number[] }>;
  resolveAlias(alias: string): Promise<{ alias: string; modelId: string; version: number } | null>;
  aliasTarget(alias: string): Promise<{ modelId: string; version: number | null } | null>;
  /** Writes an alias move inside the caller's transaction (a conclusion's promotion). */
  writeAliasMove(trx: DatabaseHandle['db'], move: AliasMoveRequest): Promise<void>;
}

/**
 * Everything the learning half of the service exposes to the rest: its services, its routes,
 * its background tasks and what must close at shutdown. The container, the app and the
 * scheduler only know this boundary.
 */
export interface LearningModule extends DomainModule<LearningServices> {
  /** One pass of the schedule task: registers the `default` model once, queues due retrains. */
  scheduleTick(): Promise<void>;
  modelCatalog: ModelCatalogPort;
  /** Rank's registry reads (alias targets, model records, active versions); tests invalidate or poll it. */
  servingCache: Pick<ServingCache, 'invalidate' | 'refreshIfChanged'>;
}

export interface LearningDependencies {
  database: DatabaseHandle;
  clock: Clock;
  /** Tests and benchmarks may pass their own runner or options. */
  runner?: TrainingRunner;
  training?: Partial<TrainingOptions>;
  /** Times the training runs the queue task starts (they outlive the task's tick). */
  observeJob?: ObserveJob;
  /** Log lines of models trained, activated or failed and of aliases moved (the container's; silent without). */
  events?: DomainEventLog;
  /** Online results of model-backed variants, for the evaluations' track record (the container's, from experiments). */
  onlineOutcomes?: () => OnlineOutcomes;
  /** Tests may lower the 202 threshold or keep estimation on this thread. */
  evaluation?: Partial<EvaluationOptions>;
}

/** The model every installation starts with, so GET /api/nous/learn/models/default describes live learning. */
export const DEFAULT_MODEL = {
  modelId: 'default',
  name: 'default',
  type: 'click_model',
  config: { algorithm: 'pbm', retrainEvery: '24h', window: '30d' },
} as const;

export function createLearningModule({
  database,
  clock,
  runner,
  training,
  observeJob = (_name, run) => run(),
  events,
  onlineOutcomes = () => NO_ONLINE_OUTCOMES,
  evaluation,
}: LearningDependencies): LearningModule {
  // Registering a model queues its first run in the same transaction, through the job store's writer.
  const stores = createLearningStores(database);
  // What rank reads per call lives in memory; local writes that change it clear it at once.
  const servingCache = new ServingCache(() => servingRevision(database.db));
  invalidateAfterWrites(stores, () => servingCache.invalidate());
  const trainingRunner = runner ?? new PiscinaTrainingRunner();
  const modelService = createModelService(stores, clock, events);
  const trainingService = createTrainingService(stores, {
    clock,
    runner: trainingRunner,
    options: { ...DEFAULT_TRAINING_OPTIONS, owner: `${hostname()}:${process.pid}:${newId()}`, ...training },
    events,
  });
  const servingService = createServingService(stores, (key, load) => servingCache.memo(key, load));
  const datasetService = createDatasetService(stores, { clock, training: trainingService });
  const aliasService = createAliasService(stores, clock, events);
  // Experiments are built after learning (they take its catalog): their outcomes are looked up per call.
  const outcomes: OnlineOutcomes = { modelBackedOutcomes: () => onlineOutcomes().modelBackedOutcomes() };
  const evaluationService = createEvaluationService(stores, {
    clock,
    aliases: aliasService,
    serving: servingService,
    outcomes,
    options: { ...DEFAULT_EVALUATION_OPTIONS, ...evaluation },
  });
  const modelCatalog: ModelCatalogPort = {
    resolveRankable: (modelId, version) => aliasService.checkRankable(modelId, version),
    score: async (modelId, version, input) => ({ scores: await servingService.scoreVersion(modelId, version, input) }),
    resolveAlias: (alias) => servingCache.memo(`alias:${alias}`, () => aliasService.resolve(alias)),
    aliasTarget: (alias) => aliasService.target(alias),
    writeAliasMove: async (trx, m) => {
      await writeAliasMove(trx, aliasService.change({ ...m, reason: m.reason }));
      // Inside the conclusion's transaction: a read between here and its commit may cache the old
      // target again, which the next poll (≤ 1 s) replaces; clearing now shortens that window.
      servingCache.invalidate();
    },
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
  const tasks: TaskSpec[] = [
    { name: 'learning-schedule', intervalMs: 5000, run: scheduleTick, observed: true },
    // Another instance's alias move, trained or imported version, or new model: seen within a second.
    { name: 'serving-cache-poll', intervalMs: 1000, run: () => servingCache.refreshIfChanged() },
    // Starts draining the queue and returns at once, so stopping the scheduler never waits for a
    // fit; a run cut short by shutdown is taken over by the next claimer once its lease ends.
    {
      name: 'training-queue',
      intervalMs: 1000,
      run: async ({ log }) => {
        draining ??= observeJob('training', () => trainingService.runUntilIdle(() => stopping))
          .catch((error: unknown) => log.error({ err: error, task: 'training-queue' }, 'training queue failed'))
          .finally(() => (draining = undefined));
      },
    },
  ];

  return {
    services: { modelService, trainingService, servingService, datasetService, aliasService, evaluationService },
    modelCatalog,
    servingCache,
    routes: async (app) => {
      await app.register(modelRoutes, { modelService });
      await app.register(trainingRoutes, { trainingService });
      await app.register(servingRoutes, { servingService });
      await app.register(datasetRoutes, { datasetService, maxBytes: DATASET_MAX_BYTES });
      await app.register(aliasRoutes, { aliasService });
      await app.register(evaluationRoutes, { evaluationService });
    },
    tasks,
    scheduleTick,
    close: async () => {
      stopping = true;
      trainingService.stop();
      await trainingRunner.close();
      await draining;
      await evaluationService.idle();
    },
  };
}

/**
 * The store writes after which rank may serve something else: a trained (`complete`) or imported
 * version, an alias move, a registered model. Each clears the serving cache once it has committed
 * (also when it failed: a failure may still have committed).
 */
function invalidateAfterWrites(stores: LearningStores, invalidate: () => void): void {
  const after =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await write(...args);
      } finally {
        invalidate();
      }
    };
  stores.jobs.complete = after(stores.jobs.complete.bind(stores.jobs));
  stores.versions.insertImported = after(stores.versions.insertImported.bind(stores.versions));
  stores.aliases.move = after(stores.aliases.move.bind(stores.aliases));
  stores.models.insert = after(stores.models.insert.bind(stores.models));
}
