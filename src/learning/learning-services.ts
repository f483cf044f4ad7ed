import type { Clock } from '../common/clock.js';
import { NotFoundError } from '../common/errors.js';
import type { DomainEventLog } from '../common/domain-events.js';
import type { DatabaseHandle } from '../storage/database.js';
import { KyselyAliasStore } from './aliases/alias.kysely-store.js';
import { AliasService } from './aliases/alias.service.js';
import type { AliasStore } from './aliases/alias.store.js';
import { KyselyDatasetStore } from './datasets/dataset.kysely-store.js';
import { DatasetService } from './datasets/dataset.service.js';
import type { DatasetStore } from './datasets/dataset.store.js';
import { KyselyEvaluationStore } from './evaluations/evaluation.kysely-store.js';
import { EvaluationService, type EvaluationOptions } from './evaluations/evaluation.service.js';
import type { EvaluationStore } from './evaluations/evaluation.store.js';
import type { CandidateScoring } from './ports/candidate-scoring.js';
import type { OnlineOutcomes } from './ports/online-outcomes.js';
import { KyselyModelVersionStore } from './models/model-version.kysely-store.js';
import type { ModelVersionStore } from './models/model-version.store.js';
import { KyselyModelStore } from './models/model.kysely-store.js';
import { ModelService } from './models/model.service.js';
import type { ModelStore } from './models/model.store.js';
import type { JobFactory } from './ports/training-queue.js';
import { ServingService, type Memo } from './serving/serving.service.js';
import { KyselyTrainingDataStore } from './training/training-data.kysely-store.js';
import type { TrainingDataStore } from './training/training-data.store.js';
import { KyselyTrainingJobStore, writeQueuedJob } from './training/training-job.kysely-store.js';
import type { TrainingJobStore } from './training/training-job.store.js';
import type { TrainingRunner } from './training/training-pool.js';
import { TrainingService, type TrainingOptions } from './training/training.service.js';

// One create…Service() per sub-domain, as Unleash's createFeature…Service: each takes the
// module's stores (Kysely ones from createLearningStores, fakes from fake-learning.ts) and
// hands every service the ports it needs from the other sub-domains. learning.module.ts and
// the unit tests build the services the same way.

/** Every store of the learning module, one instance each. */
export interface LearningStores {
  models: ModelStore;
  versions: ModelVersionStore;
  jobs: TrainingJobStore;
  datasets: DatasetStore;
  trainingData: TrainingDataStore;
  aliases: AliasStore;
  evaluations: EvaluationStore;
}

export function createLearningStores(database: DatabaseHandle): LearningStores {
  return {
    // Registering a model queues its first run in the same transaction, through the job store's writer.
    models: new KyselyModelStore(database.db, writeQueuedJob),
    versions: new KyselyModelVersionStore(database.db, database.capabilities),
    // Instances share the queue: where the database can, claims use FOR UPDATE SKIP LOCKED (see the stores).
    jobs: new KyselyTrainingJobStore(database.db, database.capabilities),
    datasets: new KyselyDatasetStore(database.db),
    trainingData: new KyselyTrainingDataStore(database.db),
    aliases: new KyselyAliasStore(database.db),
    evaluations: new KyselyEvaluationStore(database.db),
  };
}

export function createModelService(stores: LearningStores, clock: Clock, events?: DomainEventLog): ModelService {
  return new ModelService(stores.models, stores.versions, clock, events);
}

export function createTrainingService(
  stores: LearningStores,
  { clock, runner, options, events }: { clock: Clock; runner: TrainingRunner; options: TrainingOptions; events?: DomainEventLog },
): TrainingService {
  const { models, jobs, versions, datasets, trainingData: data } = stores;
  return new TrainingService({ models, jobs, versions, datasets, data, runner, clock, options, events });
}

export function createServingService(stores: LearningStores, memo?: Memo): ServingService {
  return new ServingService(stores.models, stores.versions, memo);
}

export function createDatasetService(
  stores: LearningStores,
  { clock, training, maxBytes }: { clock: Clock; training: JobFactory; maxBytes?: number },
): DatasetService {
  return new DatasetService({ models: stores.models, datasets: stores.datasets, jobs: stores.jobs, training, clock, maxBytes });
}

export function createAliasService(stores: LearningStores, clock: Clock, events?: DomainEventLog): AliasService {
  return new AliasService({ store: stores.aliases, models: stores.models, versions: stores.versions, clock, events });
}

/** Offline evaluation: candidates resolve and score through the alias service and serving, like rank does. */
export function createEvaluationService(
  stores: LearningStores,
  {
    clock,
    aliases,
    serving,
    outcomes,
    options,
  }: { clock: Clock; aliases: AliasService; serving: ServingService; outcomes: OnlineOutcomes; options: EvaluationOptions },
): EvaluationService {
  const ports: CandidateScoring = {
    checkRankable: (modelId, version) => aliases.checkRankable(modelId, version),
    aliasTarget: async (alias) => {
      const view = await aliases.get(alias).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      return view === undefined ? undefined : { modelId: view.modelId, version: view.servingVersion };
    },
    trainingWindow: async (modelId, version) => {
      // A dataset-trained version's window is when it ran, not clicks it learned from ('feedback' is the default).
      const model = await stores.models.get(modelId);
      const trainingData = model?.type === 'ranker' ? (model.config.trainingData ?? 'feedback') : undefined;
      if (trainingData !== 'feedback' && trainingData !== 'clicks') return null;
      const [found] = await stores.versions.listVersions(modelId, 1, version + 1);
      if (found?.version !== version || found.windowStart === null || found.windowEnd === null) return null;
      return { start: found.windowStart, end: found.windowEnd, readBy: found.createdAt };
    },
    scoreVersion: (modelId, version, input) => serving.scoreVersion(modelId, version, input),
  };
  return new EvaluationService({ store: stores.evaluations, ports, outcomes, clock, options });
}
