import { systemClock, type Clock } from './common/clock.js';
import { AssignmentService } from './experiments/assignment.service.js';
import { KyselyAttributionStore } from './experiments/attribution.kysely-store.js';
import { AttributionService } from './experiments/attribution.service.js';
import { ExperimentLifecycleService } from './experiments/experiment-lifecycle.service.js';
import { ExperimentService } from './experiments/experiment.service.js';
import { KyselyExposureStore } from './experiments/exposure.kysely-store.js';
import { KyselyPlanningStore } from './experiments/planning.kysely-store.js';
import { PowerService } from './experiments/power.service.js';
import { KyselyResultsStore } from './experiments/results.kysely-store.js';
import { ResultsService } from './experiments/results.service.js';
import { KyselyExperimentStore } from './experiments/experiment.kysely-store.js';
import { FeedbackService } from './feedback/feedback.service.js';
import { KyselyFeedbackStore } from './feedback/feedback.kysely-store.js';
import { createLearningModule, type LearningModule } from './learning/learning.module.js';
import type { DatabaseHandle } from './storage/database.js';

/** The composition root: the one place that decides which store backs which service. */
export interface Container {
  database: DatabaseHandle;
  clock: Clock;
  feedbackService: FeedbackService;
  learning: LearningModule;
  experimentService: ExperimentService;
  lifecycleService: ExperimentLifecycleService;
  assignmentService: AssignmentService;
  attributionService: AttributionService;
  resultsService: ResultsService;
  powerService: PowerService;
}

export function createContainer(database: DatabaseHandle, clock: Clock = systemClock): Container {
  const experimentStore = new KyselyExperimentStore(database.db);
  const experimentService = new ExperimentService(experimentStore, clock);
  const load = (id: string) => experimentService.load(id);
  const exposureStore = new KyselyExposureStore(database.db);
  const assignmentService = new AssignmentService(experimentStore, exposureStore, clock, load);
  const attributionService = new AttributionService(new KyselyAttributionStore(database.db, { advisoryLocks: database.dialect === 'postgres' }), clock);
  const resultsStore = new KyselyResultsStore(database.db);
  const resultsService = new ResultsService(resultsStore, experimentStore, exposureStore, attributionService, load, clock);
  return {
    database,
    clock,
    feedbackService: new FeedbackService(new KyselyFeedbackStore(database.db), clock),
    learning: createLearningModule({ database, clock }),
    experimentService,
    lifecycleService: new ExperimentLifecycleService(experimentStore, clock, load, () => assignmentService.invalidate(), (e) => resultsService.srm(e)),
    assignmentService,
    attributionService,
    resultsService,
    powerService: new PowerService(new KyselyPlanningStore(database.db), resultsStore, load, clock),
  };
}
