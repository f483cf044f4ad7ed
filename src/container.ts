import { ANALYTICS_PERSONAL_DATA, createAnalyticsModule, type AnalyticsModule, type RelevancePort } from './analytics/analytics.module.js';
import type { RankerPort } from './analytics/analytics.module.js';
import { createAuthModule, type AuthModule } from './auth/auth.module.js';
import { systemClock, type Clock } from './common/clock.js';
import { SILENT_EVENTS, type DomainEventLog } from './common/domain-events.js';
import type { DomainModule } from './common/module.js';
import type { TaskSpec } from './common/periodic-task.js';
import type { ApiScope } from './common/scopes.js';
import {
  EXPERIMENTS_PERSONAL_DATA,
  createExperimentsModule,
  type ExperimentsDependencies,
  type ExperimentsModule,
} from './experiments/experiments.module.js';
import type { ClickRelevance } from './experiments/experiments.module.js';
import { FEEDBACK_PERSONAL_DATA, createFeedbackModule, type FeedbackModule } from './feedback/feedback.module.js';
import { createLearningModule, type LearningModule, type ModelCatalogPort } from './learning/learning.module.js';
import type { FastifyBaseLogger } from 'fastify';
import { domainEventLog } from './observability/domain-event-log.js';
import { Metrics } from './observability/metrics.js';
import type { DatabaseHandle } from './storage/database.js';
import { createSessionEraser } from './storage/session-eraser.js';

/**
 * The composition root: the one place that creates each module over the database, and hands the
 * app their routes and the scheduler their tasks. Modules know nothing of each other.
 */
export interface Container {
  database: DatabaseHandle;
  clock: Clock;
  metrics: Metrics;
  /** Domain events' log lines (model trained, alias moved, …); silent without a logger. */
  events: DomainEventLog;
  auth: AuthModule;
  feedback: FeedbackModule;
  experiments: ExperimentsModule;
  learning: LearningModule;
  analytics: AnalyticsModule;
  /** Every module, in the order the app registers their routes. */
  modules: DomainModule<unknown>[];
  /** Every background job, for the one scheduler (src/scheduler.ts). */
  tasks: TaskSpec[];
  /** Releases what the modules hold (worker threads); the database is closed by its opener. */
  close(): Promise<void>;
}

export interface ContainerOptions {
  /** Keys from SEARCHLOOP_API_KEYS. */
  envApiKeys?: { key: string; scope: ApiScope }[];
  /** FEEDBACK_RETENTION_DAYS (0 keeps everything). */
  feedbackRetentionDays?: number;
  /** ANALYTICS_FOLD_THREAD: analytics folds on a worker thread (the server's default; off unless set here). */
  analyticsFoldThread?: boolean;
  /** ANALYTICS_FOLD_NICE: the fold thread's nice value (0 unless set here). */
  analyticsFoldNice?: number;
  /** The app's logger (main.ts hands the one Fastify logs with): domain events get their lines in it. */
  log?: Pick<FastifyBaseLogger, 'info' | 'child'>;
}

/** True only when A and B are the same type (identity, not assignability). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
type ExperimentsCatalog = NonNullable<ExperimentsDependencies['modelCatalog']>;
type LearningCatalog = Omit<ModelCatalogPort, 'writeAliasMove'>;
type RankInputs = [Parameters<ExperimentsCatalog['score']>[2], Parameters<LearningCatalog['score']>[2]];

/**
 * Experiments' ModelCatalog port (experiments/ports/model-catalog.ts) mirrors learning's ModelCatalogPort
 * on purpose: experiments never import learning's files. Handing one to the other only checks
 * assignability, method parameters bivariantly, so the two could drift; tsc compares them here instead.
 * The same methods with the same results and the same alias move; the rank input, which learning types
 * as its HTTP body, must pass both ways.
 */
export type MirroredModelCatalog = [
  Expect<Same<Omit<ExperimentsCatalog, 'score'>, Omit<LearningCatalog, 'score'>>>,
  Expect<Same<keyof ExperimentsCatalog, keyof LearningCatalog>>,
  Expect<Same<ReturnType<ExperimentsCatalog['score']>, ReturnType<LearningCatalog['score']>>>,
  Expect<RankInputs[0] extends RankInputs[1] ? (RankInputs[1] extends RankInputs[0] ? true : false) : false>,
  Expect<Same<Parameters<NonNullable<ExperimentsDependencies['aliasWriter']>>[1], Parameters<ModelCatalogPort['writeAliasMove']>[1]>>,
];

export function createContainer(database: DatabaseHandle, clock: Clock = systemClock, options: ContainerOptions = {}): Container {
  const metrics = new Metrics(() => database.poolStats());
  const events = options.log ? domainEventLog(options.log) : SILENT_EVENTS;
  const auth = createAuthModule({ database, clock, envApiKeys: options.envApiKeys });
  // A privacy request erases the session from every module's tables in one transaction.
  const eraser = createSessionEraser(database.db, database.capabilities, [
    ...FEEDBACK_PERSONAL_DATA,
    ...EXPERIMENTS_PERSONAL_DATA,
    ...ANALYTICS_PERSONAL_DATA,
  ]);
  const feedback = createFeedbackModule({ database, clock, metrics, eraser, retentionDays: options.feedbackRetentionDays ?? 0, events });
  const learning = createLearningModule({ database, clock, observeJob: (name, run) => metrics.observeJob(name, run), events });
  // Experiments see the registry only through this port: variants' models, rank, aliases and promotion.
  const experiments = createExperimentsModule({
    database,
    clock,
    metrics,
    modelCatalog: learning.modelCatalog,
    aliasWriter: (trx, move) => learning.modelCatalog.writeAliasMove(trx, move),
    events,
    clickRelevance: latestClickModel(learning),
  });
  const analytics = createAnalyticsModule({
    database,
    clock,
    relevance: clickModelRelevance(learning),
    rankers: servingRankers(learning),
    retentionDays: options.feedbackRetentionDays ?? 0,
    foldThread: options.analyticsFoldThread ?? false,
    foldNice: options.analyticsFoldNice ?? 0,
  });
  const modules: DomainModule<unknown>[] = [auth, feedback, learning, experiments, analytics];
  return {
    database,
    clock,
    metrics,
    events,
    auth,
    feedback,
    experiments,
    learning,
    analytics,
    modules,
    tasks: modules.flatMap((m) => m.tasks),
    close: async () => {
      await Promise.all(modules.map((m) => m.close()));
    },
  };
}

/** The learning module's click-model estimates as the port analytics' query page reads relevance from. */
function clickModelRelevance(learning: LearningModule): RelevancePort {
  return {
    async relevance(modelId, queryHash, resultIds) {
      const ranked = await learning.services.servingService.rank(
        modelId,
        { queryHash, results: resultIds.map((resultId) => ({ resultId })) },
        true,
      );
      if (ranked.scoreType !== 'relevance') return { reason: `model ${modelId} is not a click model` };
      // A pair the model never saw scores 0 with no impressions: it has no estimate, not a zero one.
      return {
        version: ranked.version,
        relevance: new Map(ranked.results.map((r) => [r.resultId, (r.explanation?.contributions.impressions ?? 0) > 0 ? r.score : null])),
      };
    },
  };
}

/**
 * The latest trained click model's relevance, for rank exploration's expected cost: of the click models
 * with an active version, the one whose active version was created last (ties: the lower model id).
 */
function latestClickModel(learning: LearningModule): ClickRelevance {
  const { modelService, servingService } = learning.services;
  return {
    async latest() {
      const models = await modelService.list({ type: 'click_model', limit: 200 });
      let best: { modelId: string; version: number; at: string } | null = null;
      for (const m of models.items) {
        if (m.activeVersion === null) continue;
        const versions = await modelService.listVersions(m.modelId, { limit: 200 });
        const active = versions.items.find((v) => v.version === m.activeVersion);
        if (!active) continue;
        if (!best || active.createdAt > best.at || (active.createdAt === best.at && m.modelId < best.modelId))
          best = { modelId: m.modelId, version: active.version, at: active.createdAt };
      }
      return best && { modelId: best.modelId, version: best.version };
    },
    async relevance(model, queryHash, resultIds) {
      const ranked = await servingService.rank(
        model.modelId,
        { queryHash, results: resultIds.map((resultId) => ({ resultId })) },
        true,
        model.version,
      );
      // As for analytics: a pair the model never saw has no estimate, not a zero one.
      return new Map(ranked.results.map((r) => [r.resultId, (r.explanation?.contributions.impressions ?? 0) > 0 ? r.score : null]));
    },
  };
}

/**
 * The learning module's serving as the side-by-side view's rankers: aliases resolve through the
 * catalogue POST /api/nous/rank reads, and orders come from the serving service's rank (the code of
 * POST /api/nous/learn/models/{modelId}/rank, with the version fixed).
 */
function servingRankers(learning: LearningModule): RankerPort {
  const { aliasService, servingService } = learning.services;
  return {
    async alias(alias) {
      await aliasService.get(alias); // 404 for an alias never set
      const target = await learning.modelCatalog.resolveAlias(alias);
      return target && { modelId: target.modelId, version: target.version };
    },
    featureNeeds: (modelId, version) => servingService.featureNeeds(modelId, version),
    async rank(modelId, version, input) {
      const ranked = await servingService.rank(modelId, input, false, version);
      return { scoreType: ranked.scoreType, results: ranked.results.map((r) => ({ resultId: r.resultId, score: r.score })) };
    },
  };
}
