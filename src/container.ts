import { systemClock, type Clock } from './common/clock.js';
import { ExperimentService } from './experiments/experiment.service.js';
import { KyselyExperimentStore } from './experiments/experiment.kysely-store.js';
import { FeedbackService } from './feedback/feedback.service.js';
import { KyselyFeedbackStore } from './feedback/feedback.kysely-store.js';
import { KyselyModelStore } from './learning/model.kysely-store.js';
import { ModelService } from './learning/model.service.js';
import type { DatabaseHandle } from './storage/database.js';

/** The composition root: the one place that decides which store backs which service. */
export interface Container {
  database: DatabaseHandle;
  clock: Clock;
  feedbackService: FeedbackService;
  modelService: ModelService;
  experimentService: ExperimentService;
}

export function createContainer(database: DatabaseHandle, clock: Clock = systemClock): Container {
  return {
    database,
    clock,
    feedbackService: new FeedbackService(new KyselyFeedbackStore(database.db), clock),
    modelService: new ModelService(new KyselyModelStore(database.db), clock),
    experimentService: new ExperimentService(new KyselyExperimentStore(database.db), clock),
  };
}
