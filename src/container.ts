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
import {
  createLearningModule,
  type LearningDependencies,
  type LearningModule,
  type ModelCatalogPort,
  type OnlineOutcome,
  type OnlineOutcomes,
} from './learning/learning.module.js';
import type { FastifyBaseLogger } from 'fastify';
import { domainEventLog } from './observability/domain-event-log.js';
import { Metrics } from './observability/metrics.js';
import type { DatabaseHandle } from './storage/database.js';
import { createSessionEraser } from './storage/session-eraser.js';
import type { SessionEraser } from './common/personal-data.js';

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
  /** Offline evaluations: tests lower the background (202) threshold or keep estimation on the request's thread. */
  evaluation?: LearningDependencies['evaluation'];
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
  // Experiments take learning's catalog, so learning reads their outcomes through a late-bound port.
  const late: { experiments?: ExperimentsModule } = {};
  // A privacy request erases the session from every module's tables in one transaction, after the
  // exposures and lists already answered for it have landed (they are written behind their answers),
  // so none of them is written after the erasure.
  const everyTable = createSessionEraser(database.db, database.capabilities, [
    ...FEEDBACK_PERSONAL_DATA,
    ...EXPERIMENTS_PERSONAL_DATA,
    ...ANALYTICS_PERSONAL_DATA,
  ]);
  const eraser: SessionEraser = {
    eraseSession: async (sessionId) => {
      await late.experiments?.services.searchTimeWritesSettled();
      return everyTable.eraseSession(sessionId);
    },
  };
  const feedback = createFeedbackModule({ database, clock, metrics, eraser, retentionDays: options.feedbackRetentionDays ?? 0, events });
  const learning = createLearningModule({
    database,
    clock,
    observeJob: (name, run) => metrics.observeJob(name, run),
    events,
    onlineOutcomes: () => onlineOutcomes(late.experiments as ExperimentsModule),
    evaluation: options.evaluation,
  });
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
  late.experiments = experiments;
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

type ExperimentItem = Awaited<ReturnType<ExperimentsModule['services']['experimentService']['list']>>['items'][number];

/**
 * Experiments' results of model-backed variants, as the port learning's track record reads
 * (learning/ports/online-outcomes.ts): A/B lifts on the relative scale, interleaving shares of
 * decided queries won, each against the control (interleaving without one: the first variant).
 */
function onlineOutcomes(experiments: ExperimentsModule): OnlineOutcomes {
  const { experimentService, resultsService } = experiments.services;
  const firstStart = async (experimentId: string): Promise<number | undefined> => {
    let cursor: string | undefined;
    do {
      const page = await experimentService.events(experimentId, { limit: 200, ...(cursor === undefined ? {} : { cursor }) });
      const start = page.items.find((event) => event.action === 'start' || event.action === 'activate');
      if (start) return Date.parse(start.at);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return undefined;
  };
  const outcomesOf = async (e: ExperimentItem): Promise<OnlineOutcome[]> => {
    if (e.status === 'created' || e.status === 'scheduled') return [];
    const controlId = e.configuration.controlVariantId ?? e.variants[0]?.id;
    const served = e.variants.filter((v) => v.id !== controlId && (v.model?.pinnedVersion ?? v.model?.version) !== undefined);
    if (controlId === undefined || served.length === 0) return [];
    // When it really started (startDate is only the scheduled date): its first start (or the scheduler's activation) in the audit log.
    const startedAt = await firstStart(e.experimentId);
    if (startedAt === undefined) return [];
    const results = await resultsService.results(e.experimentId, { scale: 'relative' });
    const kind = e.configuration.type ?? 'ab';
    return served.map((v) => {
      const lifts = results.metrics.flatMap((m) => {
        const c = m.comparisons.find((x) => x.variantId === v.id && x.controlVariantId === controlId);
        return c && c.estimate !== null && c.interval
          ? [{ metric: m.metric, estimate: c.estimate, interval: [c.interval[0]!, c.interval[1]!] as [number, number] }]
          : [];
      });
      const pair = results.interleaving?.pairs.find(
        (p) => (p.variantId === v.id && p.opponentVariantId === controlId) || (p.variantId === controlId && p.opponentVariantId === v.id),
      );
      const flip = pair?.variantId !== v.id;
      const share =
        pair && pair.share !== null && pair.shareCi
          ? flip
            ? { estimate: 1 - pair.share, interval: [1 - pair.shareCi[1]!, 1 - pair.shareCi[0]!] as [number, number] }
            : { estimate: pair.share, interval: [pair.shareCi[0]!, pair.shareCi[1]!] as [number, number] }
          : null;
      return {
        experimentId: e.experimentId,
        experimentName: e.name,
        experimentStatus: e.status,
        kind,
        startedAt,
        variantId: v.id,
        controlVariantId: controlId,
        modelId: v.model!.modelId,
        version: (v.model!.pinnedVersion ?? v.model!.version) as number,
        lifts,
        share,
      };
    });
  };
  return {
    async modelBackedOutcomes() {
      const outcomes: OnlineOutcome[] = [];
      let cursor: string | undefined;
      do {
        const page = await experimentService.list({ limit: 200, ...(cursor === undefined ? {} : { cursor }) });
        for (const e of page.items) outcomes.push(...(await outcomesOf(e)));
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      return outcomes;
    },
  };
}
