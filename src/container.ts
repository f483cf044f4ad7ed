import { ApiKeyService } from './auth/api-key.service.js';
import { KyselyApiKeyStore } from './auth/api-key.kysely-store.js';
import { systemClock, type Clock } from './common/clock.js';
import type { ApiScope } from './config.js';
import { AssignmentService } from './experiments/assignment.service.js';
import { KyselyAttributionStore } from './experiments/attribution.kysely-store.js';
import { AttributionService } from './experiments/attribution.service.js';
import { ExperimentLifecycleService } from './experiments/experiment-lifecycle.service.js';
import { ExperimentService } from './experiments/experiment.service.js';
import { CovariateService } from './experiments/covariate.service.js';
import { KyselyExposureStore } from './experiments/exposure.kysely-store.js';
import { KyselyPreExposureCovariates } from './experiments/pre-exposure-covariates.kysely-store.js';
import { KyselyPlanningStore } from './experiments/planning.kysely-store.js';
import { PowerService } from './experiments/power.service.js';
import { KyselyResultsStore } from './experiments/results.kysely-store.js';
import { ResultsService } from './experiments/results.service.js';
import { KyselyExperimentStore } from './experiments/experiment.kysely-store.js';
import { FeedbackService } from './feedback/feedback.service.js';
import { KyselyFeedbackStore } from './feedback/feedback.kysely-store.js';
import { createLearningModule, type LearningModule } from './learning/learning.module.js';
import { Metrics } from './observability/metrics.js';
import type { DatabaseHandle } from './storage/database.js';

/** The composition root: the one place that decides which store backs which service. */
export interface Container {
  database: DatabaseHandle;
  clock: Clock;
  apiKeys: ApiKeyService;
  metrics: Metrics;
  feedbackService: FeedbackService;
  learning: LearningModule;
  experimentService: ExperimentService;
  lifecycleService: ExperimentLifecycleService;
  assignmentService: AssignmentService;
  attributionService: AttributionService;
  covariateService: CovariateService;
  resultsService: ResultsService;
  powerService: PowerService;
}

export interface ContainerOptions {
  /** Keys from SEARCHLOOP_API_KEYS. */
  envApiKeys?: { key: string; scope: ApiScope }[];
}

export function createContainer(database: DatabaseHandle, clock: Clock = systemClock, options: ContainerOptions = {}): Container {
  const experimentStore = new KyselyExperimentStore(database.db);
  const experimentService = new ExperimentService(experimentStore, clock);
  const load = (id: string) => experimentService.load(id);
  const metrics = new Metrics(() => database.poolStats());
  const exposureStore = new KyselyExposureStore(database.db);
  const covariateService = new CovariateService(new KyselyPreExposureCovariates(database.db));
  const assignmentService = new AssignmentService(experimentStore, exposureStore, clock, load, metrics, (rows) =>
    covariateService.enqueue(rows),
  );
  const attributionService = new AttributionService(
    new KyselyAttributionStore(database.db, { advisoryLocks: database.dialect === 'postgres' }),
    clock,
  );
  const resultsStore = new KyselyResultsStore(database.db);
  const resultsService = new ResultsService(
    resultsStore,
    experimentStore,
    exposureStore,
    attributionService,
    covariateService,
    load,
    clock,
  );
  return {
    database,
    clock,
    apiKeys: new ApiKeyService(new KyselyApiKeyStore(database.db), clock, options.envApiKeys),
    metrics,
    feedbackService: new FeedbackService(new KyselyFeedbackStore(database.db), clock, metrics),
    learning: createLearningModule({ database, clock }),
    experimentService,
    lifecycleService: new ExperimentLifecycleService(
      experimentStore,
      clock,
      load,
      () => assignmentService.invalidate(),
      (e) => resultsService.srm(e),
    ),
    assignmentService,
    attributionService,
    covariateService,
    resultsService,
    powerService: new PowerService(new KyselyPlanningStore(database.db), resultsStore, load, clock),
  };
}
