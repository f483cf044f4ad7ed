import type { Clock } from '../common/clock.js';
import type { DomainEventLog } from '../common/domain-events.js';
import type { DomainModule } from '../common/module.js';
import type { PersonalDataTable, SessionEraser } from '../common/personal-data.js';
import type { Metrics } from '../observability/metrics.js';
import type { DatabaseHandle } from '../storage/database.js';
import { createSessionEraser } from '../storage/session-eraser.js';
import { KyselyFeedbackRetentionStore } from './feedback-retention.kysely-store.js';
import { FeedbackRetentionService } from './feedback-retention.service.js';
import { KyselyFeedbackStore } from './feedback.kysely-store.js';
import { feedbackRoutes } from './feedback.routes.js';
import { FeedbackExchangeService } from './feedback-exchange.service.js';
import { FeedbackService } from './feedback.service.js';
import { KyselyFeedbackImportStore } from './import/import.kysely-store.js';
import { importRoutes } from './import/import.routes.js';
import { FeedbackImportService } from './import/import.service.js';
import { ubiRoutes } from './ubi/ubi.routes.js';
import { UbiService } from './ubi/ubi.service.js';
import { HOUR_MS } from '../common/time.js';

// The vocabulary of services.exchange, for the CLI (which knows the module only through this file).
export type { ExportFilter, ExportFormat } from './export/feedback-export.js';
export type { ImportFormat } from './import/import-lines.js';
export type { ImportBatchReport } from './import/import.service.js';
export type { FeedbackExchangeService, ImportRun } from './feedback-exchange.service.js';
/** One CSV record of one line: `searchloop import --url` reads a CSV file's header with it, to send along with each batch. */
export { splitCsvLine } from './import/import-lines.js';

export interface FeedbackDependencies {
  database: DatabaseHandle;
  clock: Clock;
  metrics?: Pick<Metrics, 'feedbackItems'>;
  /**
   * Erases a session everywhere (the composition root builds it over every module's personal data);
   * without it, DELETE erases the feedback tables only.
   */
  eraser?: SessionEraser;
  /** FEEDBACK_RETENTION_DAYS; 0 or absent keeps everything. */
  retentionDays?: number;
  /** Log lines of import batches, retention runs and erasures (the container's; silent without). */
  events?: DomainEventLog;
}

/** The feedback rows keyed by a session id. */
export const FEEDBACK_PERSONAL_DATA: PersonalDataTable[] = [
  { table: 'feedback_items', column: 'session_id', kind: 'feedbackItems' },
  { table: 'feedback_submissions', column: 'session_id', kind: 'feedbackSubmissions' },
  { table: 'idempotency_keys', column: 'session_id', kind: 'idempotencyKeys' },
];

export type FeedbackModule = DomainModule<{
  feedbackService: FeedbackService;
  importService: FeedbackImportService;
  /** Feedback files in and out in bulk: what `searchloop import` and `export` call. */
  exchange: FeedbackExchangeService;
  retention: FeedbackRetentionService;
}>;

/**
 * Feedback ingestion: POST/GET/DELETE /api/cortex/feedback, UBI in (/api/cortex/ubi/…) and export out,
 * the idempotency-key expiry and retention jobs.
 */
export function createFeedbackModule({
  database,
  clock,
  metrics,
  eraser,
  retentionDays = 0,
  events,
}: FeedbackDependencies): FeedbackModule {
  const sessionEraser = eraser ?? createSessionEraser(database.db, database.capabilities, FEEDBACK_PERSONAL_DATA);
  const feedbackService = new FeedbackService(new KyselyFeedbackStore(database.db), clock, metrics, sessionEraser, events);
  const retention = new FeedbackRetentionService(
    new KyselyFeedbackRetentionStore(database.db, database.capabilities),
    clock,
    retentionDays,
    events,
  );
  const importService = new FeedbackImportService(new KyselyFeedbackImportStore(database), feedbackService, clock, events);
  return {
    services: { feedbackService, importService, exchange: new FeedbackExchangeService(importService, feedbackService), retention },
    routes: async (app) => {
      await app.register(feedbackRoutes, { feedbackService });
      await app.register(ubiRoutes, { ubiService: new UbiService(feedbackService), feedbackService });
      await app.register(importRoutes, { importService });
    },
    tasks: [
      { name: 'idempotency-expiry', intervalMs: HOUR_MS, run: () => feedbackService.expireIdempotencyKeys(), observed: true },
      // Partitions ahead of the clock (PostgreSQL) and removal past FEEDBACK_RETENTION_DAYS; safe on
      // several instances (IF NOT EXISTS, idempotent batched deletes, drops that give up on a lock).
      { name: 'feedback-retention', intervalMs: HOUR_MS, run: () => retention.run().then((r) => r.items), observed: true },
    ],
    close: async () => undefined,
  };
}
