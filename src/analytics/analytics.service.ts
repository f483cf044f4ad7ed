import type { Clock } from '../common/clock.js';
import { AppError, NotFoundError } from '../common/errors.js';
import type { AnalyticsFoldStore, FoldRunner } from './store/fold.store.js';
import type { AnalyticsReadsStore, Slice } from './store/reads.store.js';
import { DAY_MS } from '../common/time.js';
import { addInto, figuresOf, histogramOf, sumCounters, type Figures, type HistogramBar } from './model/figures.js';
import { bucketOf, bucketStarts, iso, resolveWindow, type RequestWindow } from './model/request-window.js';
import { planFold } from './fold/fold-plan.js';
import { emptyCounters, type Counters, type Dimension } from './model/counters.js';
import { listQueries, type QueryListOptions, type QueryPage } from './model/query-list.js';
import { drainBatches, singleFlight } from '../common/batches.js';

export interface WindowQuery {
  from?: string;
  to?: string;
  dimension?: Dimension;
  value?: string;
}

export type Interval = 'hour' | 'day';

/** The learning module's click-model estimates, handed in by the container (analytics knows no other module). */
export interface RelevancePort {
  /** Relevance per result for the model's active version; throws NotFoundError for an unknown model. */
  relevance(
    modelId: string,
    queryHash: string,
    resultIds: string[],
  ): Promise<{ version: number; relevance: Map<string, number | null> } | { reason: string }>;
}

export interface Answered {
  window: { from: string; to: string };
  dimension: Dimension | null;
  value: string | null;
  dataFreshAsOf: string | null;
}

export interface SeriesPoint extends Figures {
  start: string;
}

export interface Overview extends Answered {
  interval: Interval;
  totals: Figures & { distinctQueries: number };
  series: (SeriesPoint & { distinctQueries: number })[];
  histogram: HistogramBar[];
}

export interface PositionCounts {
  position: number | null;
  impressions: number;
  clicks: number;
  ctr: number | null;
}

export interface ResultRow {
  resultId: string;
  impressions: number;
  clicks: number;
  ctr: number | null;
  meanPosition: number | null;
  byPosition: PositionCounts[];
  relevance: number | null;
}

export interface QueryDetail extends Answered {
  interval: Interval;
  queryHash: string;
  queryText: string | null;
  figures: Figures & { share: number | null };
  series: SeriesPoint[];
  histogram: HistogramBar[];
  positions: PositionCounts[];
  results: ResultRow[];
  relevanceModel: { modelId: string; version: number | null; reason: string | null };
}

export function sliceOf(w: RequestWindow, q: WindowQuery): Slice {
  return { dimension: q.dimension ?? '', value: q.dimension ? (q.value ?? '') : '', fromHour: w.fromHour, toHour: w.toHour };
}

function seriesOf(w: RequestWindow, interval: Interval, hours: { hour: number; counters: Counters }[]): SeriesPoint[] {
  const buckets = new Map(bucketStarts(w, interval).map((t) => [t, emptyCounters()]));
  for (const h of hours) {
    const b = buckets.get(bucketOf(h.hour, interval));
    if (b) addInto(b, h.counters);
  }
  return [...buckets].map(([t, c]) => ({ start: iso(t), ...figuresOf(c) }));
}

const ctrOf = (impressions: number, clicks: number) => (impressions > 0 ? clicks / impressions : null);

/**
 * Items per fold batch on the fold thread where the database lets it (analytics.module.ts decides).
 * Per batch the fold pays a transaction and a dozen statements, so larger batches cost less per
 * item: fold-profile.ts (40 000 items, 2026-11-27, two runs each) 250 → 1 000 items took PostgreSQL
 * from 80 to 65 µs per item (server CPU 45.6 → 37.6 µs) and SQLite from 38.8 to 30.3 µs.
 */
export const FOLD_THREAD_BATCH_SIZE = 1000;

/** What AnalyticsService works with (analytics.module.ts wires the real ones; tests may hand fakes). */
export interface AnalyticsServiceDependencies {
  folds: Pick<AnalyticsFoldStore, 'aggregateNext' | 'pruneEntities'>;
  reads: AnalyticsReadsStore;
  clock: Clock;
  relevance?: RelevancePort | null;
  /** Items per fold batch on this thread (default 250). */
  batchSize?: number;
  /** FEEDBACK_RETENTION_DAYS (0, the default, keeps everything) */
  retentionDays?: number;
  /** Folds on a worker thread (fold/fold-thread.ts); without one, catchUp folds on this thread. */
  foldRunner?: Pick<FoldRunner, 'drain' | 'prune'> | null;
  /** Items per batch on the fold thread (default: batchSize). */
  threadBatchSize?: number;
}

/**
 * Search analytics: folds feedback into hourly aggregates (the `analytics` task) and answers
 * the overview, the query list and one query from those aggregates, never from raw feedback.
 */
export class AnalyticsService {
  private readonly folds: AnalyticsServiceDependencies['folds'];
  private readonly reads: AnalyticsReadsStore;
  private readonly clock: Clock;
  private readonly relevance: RelevancePort | null;
  private readonly batchSize: number;
  private readonly retentionDays: number;
  private readonly foldRunner: Pick<FoldRunner, 'drain' | 'prune'> | null;
  private readonly threadBatchSize: number;

  constructor(dependencies: AnalyticsServiceDependencies) {
    this.folds = dependencies.folds;
    this.reads = dependencies.reads;
    this.clock = dependencies.clock;
    this.relevance = dependencies.relevance ?? null;
    this.batchSize = dependencies.batchSize ?? 250;
    this.retentionDays = dependencies.retentionDays ?? 0;
    this.foldRunner = dependencies.foldRunner ?? null;
    this.threadBatchSize = dependencies.threadBatchSize ?? this.batchSize;
  }

  /**
   * Removes the folded state of searches, sessions and (session, query) pairs whose latest item
   * was received more than FEEDBACK_RETENTION_DAYS ago, so the rows that name sessions and queryIds
   * do not outlive the raw items (the aggregates stay). Batches of 1 000; returns states removed.
   */
  async pruneStates(): Promise<number> {
    if (this.retentionDays <= 0) return 0;
    const cutoff = this.clock.now() - this.retentionDays * DAY_MS;
    let total = 0;
    for (;;) {
      // With a fold thread its connection prunes: on SQLite it is then the analytics file's only writer.
      const removed = await (this.foldRunner ? this.foldRunner.prune(cutoff, 1000) : this.folds.pruneEntities(cutoff, 1000));
      if (removed === null) return total;
      total += removed;
      if (removed < 1000) return total;
    }
  }

  /** Folds the whole backlog in batches; concurrent callers share one run. Returns items folded. */
  // On the event loop batches stay at 250: 1 000-item batches halve the pages the fold writes per
  // item (fold-profile.ts) but hold SQLite's event loop ~4× as long; on the quiet machine
  // (bench:ingest, 2026-11-23) they cut 50-item ingestion from 436 to 356 req/s and raised its
  // open-loop p99 from 640 to 1 501 ms. The fold thread holds no event loop: it takes threadBatchSize.
  // `stop` is the scheduler's signal when a background run calls; a request catching up passes none.
  readonly catchUp = singleFlight((stop) =>
    this.foldRunner
      ? this.foldRunner.drain(this.threadBatchSize, this.clock.now(), stop)
      : drainBatches(
          this.batchSize,
          () => this.clock.now(),
          () => this.folds.aggregateNext(this.batchSize, planFold, this.clock.now()),
          { stop },
        ),
  );

  private async answered(w: RequestWindow, q: WindowQuery): Promise<Answered> {
    const fresh = await this.reads.freshAsOf();
    return {
      window: { from: iso(w.fromHour), to: iso(w.toHour) },
      dimension: q.dimension ?? null,
      value: q.dimension ? (q.value ?? '') : null,
      dataFreshAsOf: fresh === null ? null : iso(fresh),
    };
  }

  async overview(q: WindowQuery & { interval?: Interval }): Promise<Overview> {
    const w = resolveWindow(q, this.clock.now());
    const interval = q.interval ?? 'day';
    const slice = sliceOf(w, q);
    const [hours, distinctQueries, perDay, answered] = await Promise.all([
      this.reads.totalHours(slice),
      this.reads.distinctQueries(slice),
      interval === 'day' ? this.reads.distinctPerDay(slice) : Promise.resolve(null),
      this.answered(w, q),
    ]);
    const total = sumCounters(hours.map((h) => h.counters));
    const perHour = new Map(hours.map((h) => [h.hour, h.queries ?? 0]));
    return {
      ...answered,
      interval,
      totals: { ...figuresOf(total), distinctQueries },
      // A day's distinct queries are those of the whole UTC day (a window edge inside a day does not cut it).
      series: seriesOf(w, interval, hours).map((p) => {
        const start = Date.parse(p.start);
        return { ...p, distinctQueries: (perDay ? perDay.get(start) : perHour.get(start)) ?? 0 };
      }),
      histogram: histogramOf(total),
    };
  }

  async queries(q: WindowQuery & QueryListOptions): Promise<QueryPage & Answered> {
    const w = resolveWindow(q, this.clock.now());
    const [page, answered] = await Promise.all([listQueries(this.reads, w, sliceOf(w, q), q), this.answered(w, q)]);
    return { ...answered, ...page };
  }

  async query(queryHash: string, q: WindowQuery & { interval?: Interval; model?: string }): Promise<QueryDetail> {
    const w = resolveWindow(q, this.clock.now());
    const interval = q.interval ?? 'day';
    const slice = sliceOf(w, q);
    if (!(await this.reads.knows(queryHash))) throw new NotFoundError(`query ${queryHash} has no analytics`);
    const [hours, totals, counts, texts, answered] = await Promise.all([
      this.reads.queryHours(slice, [queryHash]),
      this.reads.totalHours(slice),
      this.reads.results(queryHash, w.fromHour, w.toHour, slice.dimension ? { dimension: slice.dimension, value: slice.value } : undefined),
      this.reads.texts([queryHash]),
      this.answered(w, q),
    ]);
    const own = sumCounters(hours.map((h) => h.counters));
    const all = sumCounters(totals.map((h) => h.counters));
    const byResult = new Map<string, PositionCounts[]>();
    const byPosition = new Map<number, PositionCounts>();
    for (const r of counts) {
      const position = r.position > 0 ? r.position : null;
      const list = byResult.get(r.resultId) ?? [];
      list.push({ position, impressions: r.impressions, clicks: r.clicks, ctr: ctrOf(r.impressions, r.clicks) });
      byResult.set(r.resultId, list);
      const p = byPosition.get(r.position) ?? { position, impressions: 0, clicks: 0, ctr: null };
      p.impressions += r.impressions;
      p.clicks += r.clicks;
      p.ctr = ctrOf(p.impressions, p.clicks);
      byPosition.set(r.position, p);
    }
    const modelId = q.model ?? 'default';
    const rel = await this.relevanceFor(modelId, queryHash, [...byResult.keys()]);
    const results: ResultRow[] = [...byResult].map(([resultId, list]) => {
      const impressions = list.reduce((s, p) => s + p.impressions, 0);
      const clicks = list.reduce((s, p) => s + p.clicks, 0);
      const shown = list.filter((p) => p.position !== null);
      const shownImpressions = shown.reduce((s, p) => s + p.impressions, 0);
      const positionSum = shown.reduce((s, p) => s + p.impressions * p.position!, 0);
      return {
        resultId,
        impressions,
        clicks,
        ctr: ctrOf(impressions, clicks),
        meanPosition: shownImpressions > 0 ? positionSum / shownImpressions : null,
        byPosition: list,
        relevance: 'relevance' in rel ? (rel.relevance.get(resultId) ?? null) : null,
      };
    });
    results.sort(
      (a, b) =>
        (a.meanPosition ?? Infinity) - (b.meanPosition ?? Infinity) || b.impressions - a.impressions || (a.resultId < b.resultId ? -1 : 1),
    );
    return {
      ...answered,
      interval,
      queryHash,
      queryText: texts.get(queryHash) ?? null,
      figures: { ...figuresOf(own), share: all.searches > 0 ? own.searches / all.searches : null },
      series: seriesOf(w, interval, hours),
      histogram: histogramOf(own),
      positions: [...byPosition.values()].sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity)),
      results,
      relevanceModel: {
        modelId,
        version: 'version' in rel ? rel.version : null,
        reason: 'reason' in rel ? rel.reason : null,
      },
    };
  }

  private async relevanceFor(
    modelId: string,
    queryHash: string,
    resultIds: string[],
  ): Promise<{ version: number; relevance: Map<string, number | null> } | { reason: string }> {
    if (!this.relevance) return { reason: 'no click models in this deployment' };
    try {
      return await this.relevance.relevance(modelId, queryHash, resultIds);
    } catch (error) {
      // A named model must exist (404); the default one may not be registered or trained yet.
      if (error instanceof NotFoundError && modelId !== 'default') throw error;
      if (error instanceof AppError && error.status < 500) return { reason: error.message };
      throw error;
    }
  }
}
