import type { PersonalDataTable } from '../common/personal-data.js';
import type { Clock } from '../common/clock.js';
import type { DomainModule } from '../common/module.js';
import type { DatabaseHandle } from '../storage/database.js';
import { KyselyAnalyticsFoldStore } from './store/fold.kysely-store.js';
import { KyselyAnalyticsReadsStore } from './store/reads.kysely-store.js';
import { FoldThread } from './fold/fold-thread.js';
import { analyticsRoutes } from './analytics.routes.js';
import { AnalyticsService, FOLD_THREAD_BATCH_SIZE, type RelevancePort } from './analytics.service.js';
import { HOUR_MS } from '../common/time.js';
import { KyselyLoggedFeaturesStore } from './side-by-side/logged-features.kysely-store.js';
import { sideBySideRoutes } from './side-by-side/side-by-side.routes.js';
import { SideBySideService, type RankerPort } from './side-by-side/side-by-side.service.js';

export type { RelevancePort } from './analytics.service.js';
export type { RankerPort } from './side-by-side/side-by-side.service.js';

export interface AnalyticsDependencies {
  database: DatabaseHandle;
  clock: Clock;
  /** Click-model relevance for the query page (the learning module's serving service, adapted by the container). */
  relevance?: RelevancePort;
  /** Rankers for the side-by-side view (the learning module's serving, adapted by the container). */
  rankers?: RankerPort;
  batchSize?: number;
  /** FEEDBACK_RETENTION_DAYS: per-search states are removed with the raw items (0 keeps them). */
  retentionDays?: number;
  /**
   * ANALYTICS_FOLD_THREAD: fold on a worker thread with its own connection (the server's default),
   * or on the event loop (false; also for an in-memory SQLite database, which no thread can share).
   */
  foldThread?: boolean;
  /** ANALYTICS_FOLD_NICE: the fold thread's nice value (fold-thread.ts). */
  foldNice?: number;
}

/**
 * Analytics keeps the folded state of each session (`s:<session>`), each (session, query) pair
 * (`p:<session>\n<queryHash>`) and each search (`q:<queryId>`, found through the session's feedback):
 * erased with the session. The hourly counters are sums over many sessions and stay.
 */
export const ANALYTICS_PERSONAL_DATA: PersonalDataTable[] = [
  { table: 'analytics_entities', column: 'key', kind: 'analyticsSearches', viaFeedback: { column: 'query_id', prefix: 'q:' } },
  { table: 'analytics_entities', column: 'key', kind: 'analyticsSessions', key: { prefix: 's:' } },
  { table: 'analytics_entities', column: 'key', kind: 'analyticsSessionQueries', key: { prefix: 'p:', startsWith: true, separator: '\n' } },
];

export type AnalyticsModule = DomainModule<{ analyticsService: AnalyticsService; sideBySideService: SideBySideService }>;

/** Search analytics: hourly aggregates folded from feedback (task `analytics`) and GET /api/cortex/analytics/…. */
export function createAnalyticsModule({
  database,
  clock,
  relevance,
  rankers,
  batchSize,
  retentionDays,
  foldThread,
  foldNice = 0,
}: AnalyticsDependencies): AnalyticsModule {
  const share = foldThread ? database.threadShare() : undefined;
  const runner = share ? new FoldThread(share, foldNice) : null;
  // Where a read transaction holds back writers (SQLite: the WAL catch-up checkpoint waits for the
  // fold's read of the feedback file, with ingestion paused), the thread keeps the event loop's short
  // batches: 1 000-item batches took bench:analytics' SQLite cost at 8 in flight from 10.6 to 23.4 %.
  const threadBatchSize = database.capabilities.readsHoldBackWriters ? batchSize : FOLD_THREAD_BATCH_SIZE;
  const analyticsService = new AnalyticsService({
    folds: new KyselyAnalyticsFoldStore(database.db, database.capabilities),
    reads: new KyselyAnalyticsReadsStore(database.db, database.capabilities),
    clock,
    relevance,
    batchSize,
    retentionDays,
    foldRunner: runner,
    threadBatchSize,
  });
  const sideBySideService = new SideBySideService({
    detail: (queryHash, query) => analyticsService.query(queryHash, query),
    rankers: rankers ?? null,
    features: new KyselyLoggedFeaturesStore(database.db),
  });
  return {
    services: { analyticsService, sideBySideService },
    routes: async (app) => {
      await app.register(analyticsRoutes, { analyticsService });
      await app.register(sideBySideRoutes, { sideBySideService });
    },
    tasks: [
      { name: 'analytics', intervalMs: 2_000, run: ({ signal }) => analyticsService.catchUp(signal), observed: true },
      { name: 'analytics-retention', intervalMs: HOUR_MS, run: () => analyticsService.pruneStates(), observed: true },
    ],
    close: async () => {
      await runner?.close();
    },
  };
}
