import type { Clock } from '../common/clock.js';
import type { DomainModule } from '../common/module.js';
import type { Metrics } from '../observability/metrics.js';
import type { DatabaseHandle } from '../storage/database.js';
import { KyselyFeedbackStore } from './feedback.kysely-store.js';
import { feedbackRoutes } from './feedback.routes.js';
import { FeedbackService } from './feedback.service.js';

export interface FeedbackDependencies {
  database: DatabaseHandle;
  clock: Clock;
  metrics?: Pick<Metrics, 'feedbackItems'>;
}

export type FeedbackModule = DomainModule<{ feedbackService: FeedbackService }>;

/** Feedback ingestion: POST/GET/DELETE /api/cortex/feedback, and the idempotency-key expiry job. */
export function createFeedbackModule({ database, clock, metrics }: FeedbackDependencies): FeedbackModule {
  const feedbackService = new FeedbackService(new KyselyFeedbackStore(database.db), clock, metrics);
  return {
    services: { feedbackService },
    routes: async (app) => {
      await app.register(feedbackRoutes, { feedbackService });
    },
    tasks: [{ name: 'idempotency-expiry', intervalMs: 3_600_000, run: () => feedbackService.expireIdempotencyKeys(), observed: true }],
    close: async () => undefined,
  };
}
