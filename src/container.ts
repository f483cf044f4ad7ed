import { systemClock, type Clock } from './common/clock.js';
import { AssignmentService } from './experiments/assignment.service.js';
import { KyselyAttributionStore } from './experiments/attribution.kysely-store.js';
import { AttributionService } from './experiments/attribution.service.js';
import { ExperimentLifecycleService } from './experiments/experiment-lifecycle.service.js';
import { ExperimentService } from './experiments/experiment.service.js';
import { KyselyExposureStore } from './experiments/exposure.kysely-store.js';
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
}

export function createContainer(database: DatabaseHandle, clock: Clock = systemClock): Container {
  const experimentStore = new KyselyExperimentStore(database.db);
  const experimentService = new ExperimentService(experimentStore, clock);
  const load = (id: string) => experimentService.load(id);
  const assignmentService = new AssignmentService(experimentStore, new KyselyExposureStore(database.db), clock, load);
  return {
    database,
    clock,
    feedbackService: new FeedbackService(new KyselyFeedbackStore(database.db), clock),
    learning: createLearningModule({ database, clock }),
    experimentService,
    lifecycleService: new ExperimentLifecycleService(experimentStore, clock, load, () => assignmentService.invalidate()),
    assignmentService,
    attributionService: new AttributionService(new KyselyAttributionStore(database.db, { advisoryLocks: database.dialect === 'postgres' }), clock),
  };
}
