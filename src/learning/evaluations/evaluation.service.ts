import { toIso, type Clock } from '../../common/clock.js';
import { NotFoundError, ValidationError } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { decodeNewestFirstCursor, keyOfNewestFirst, toPage, type Page } from '../../common/pagination.js';
import { estimate, type EstimationInput, type EstimationOutput } from './estimate.js';
import { estimateOnThread } from './evaluation-thread.js';
import {
  DEFAULT_METRICS,
  METRIC_PATTERN,
  type EvaluationCreateBody,
  type EvaluationListQuery,
  type EvaluationView,
  type PositionBiasQuery,
  type PositionBiasView,
  type TrackRecordView,
} from './evaluation.schemas.js';
import type { OnlineOutcomes } from '../ports/online-outcomes.js';
import { positionBias } from './position-bias.js';
import { trackRecord } from './track-record.js';
import type { EvaluationRecord, EvaluationStore } from './evaluation.store.js';
import { describeSource, toEvaluationView, toStoredResult, type StoredRequest } from './evaluation-view.js';
import { parseWindow, readWindow } from './evaluation-window.js';
import type { EvalMetric } from '../../offline-eval/index.js';
import { rankingsOf, resolveSource, sourceView, type RankingPorts, type ResolvedSource } from './ranking-sources.js';

export interface EvaluationOptions {
  /** Windows with more searches run in the background (202); the figure is 50 000. */
  syncLimit: number;
  /** Run background estimations on a worker thread (evaluation.worker.ts); off, they run on this one. */
  thread: boolean;
}

/** How often a background evaluation says it is alive; a row silent for STALE_AFTER_MS reads as failed (evaluation-view.ts). */
const HEARTBEAT_MS = 15_000;

export const DEFAULT_EVALUATION_OPTIONS: EvaluationOptions = { syncLimit: 50_000, thread: true };

export type CreateAnswer =
  { status: 201; view: EvaluationView } | { status: 202; accepted: { evaluationId: string; status: 'running'; progress: number } };

interface Job {
  id: string;
  window: { start: number; end: number };
  candidate: ResolvedSource;
  baseline: ResolvedSource;
  estimator: EstimationInput['estimator'];
  metrics: EvalMetric[];
  depth: number;
  searches: number;
}

/**
 * Offline evaluation (issue 26 §2): resolves the candidate and baseline when asked (so errors are
 * 400s naming the field and the stored evaluation says which version it evaluated), reads the
 * window's logged searches, ranks each logged query under both, and hands the numbers to the
 * offline-eval library. Small windows answer at once (201); large ones run in the background with
 * progress (202, then GET).
 */
export class EvaluationService {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      store: EvaluationStore;
      ports: RankingPorts;
      outcomes: OnlineOutcomes;
      clock: Clock;
      options: EvaluationOptions;
    },
  ) {}

  async create(body: EvaluationCreateBody, actor: string): Promise<CreateAnswer> {
    const window = parseWindow(body.from, body.to, 'body', { now: this.deps.clock.now(), days: 28 });
    const metrics = [...new Set(body.metrics ?? DEFAULT_METRICS)];
    (body.metrics ?? []).forEach((m, i) => {
      if (!METRIC_PATTERN.test(m))
        throw ValidationError.field(
          `/metrics/${i}`,
          'is not mrr, clicks_per_search, abandonment_rate, satisfied_clicks or ctr@k (k 1..50)',
        );
    });
    const candidate = await resolveSource(body.candidate, '/candidate', this.deps.ports);
    const baseline: ResolvedSource = body.baseline ? await resolveSource(body.baseline, '/baseline', this.deps.ports) : { kind: 'logged' };
    const searches = await this.deps.store.countSearches(window);
    if (searches === 0) throw ValidationError.field('/from', 'the window from–to holds no logged searches with impressions');
    const job: Job = {
      id: newId(),
      window,
      candidate,
      baseline,
      estimator: body.estimator ?? 'snips',
      metrics: metrics as EvalMetric[],
      depth: body.depth ?? 10,
      searches,
    };
    const request: StoredRequest = {
      candidate: sourceView(candidate),
      baseline: sourceView(baseline),
      window,
      estimator: job.estimator,
      depth: job.depth,
      metrics,
      warnings: await this.trainingOverlap(candidate, window, searches),
    };
    const model = candidate.kind === 'model' || candidate.kind === 'alias' ? candidate : null;
    const record: EvaluationRecord = {
      id: job.id,
      name: body.name ?? `${describeSource(request.candidate)} vs ${describeSource(request.baseline)}`,
      status: 'running',
      progress: 0,
      request: JSON.stringify(request),
      result: null,
      error: null,
      createdAt: this.deps.clock.now(),
      finishedAt: null,
      heartbeatAt: this.deps.clock.now(),
      createdBy: actor,
      candidateModelId: model?.modelId ?? null,
      candidateVersion: model?.version ?? null,
    };
    await this.deps.store.insert(record);
    if (searches > this.deps.options.syncLimit) {
      const run = this.run(job, true).finally(() => this.running.delete(run));
      this.running.add(run);
      return { status: 202, accepted: { evaluationId: job.id, status: 'running', progress: 0 } };
    }
    await this.run(job, false);
    return { status: 201, view: await this.get(job.id) };
  }

  /**
   * Reads (0–50 %), ranks (50–70 %), estimates (70–100 %). Progress is written only in the background:
   * nobody can read it while a small evaluation answers its own request.
   */
  private async run(job: Job, background: boolean): Promise<void> {
    const { store, clock } = this.deps;
    let done = 0;
    const progress = async (p: number) => {
      done = Math.min(0.99, p);
      if (background) await store.setProgress(job.id, done, clock.now());
    };
    // The estimation on its thread reports nothing for a while: the beat says the process still runs it.
    const beat = background
      ? setInterval(() => void store.setProgress(job.id, done, clock.now()).catch(() => {}), HEARTBEAT_MS)
      : undefined;
    beat?.unref();
    try {
      const scored = (r: ResolvedSource) => (r.kind === 'model' || r.kind === 'alias') && r.modelId !== null;
      const window = await readWindow(store, job.window, job.depth, {
        withFeatures: scored(job.candidate) || scored(job.baseline),
        onPage: (read) => progress(0.5 * Math.min(1, read / job.searches)),
      });
      if (window.searches.length === 0) throw ValidationError.field('/from', 'no search in the window has a logged list from position 1');
      await progress(0.5);
      const scoring = (share: number) => (done: number, total: number) => progress(0.5 + share * (done / total));
      const candidate = await rankingsOf(job.candidate, window, this.deps.ports, scoring(0.1));
      const baseline = await rankingsOf(job.baseline, window, this.deps.ports, scoring(0.1));
      await progress(0.7);
      const input: EstimationInput = {
        searches: window.searches,
        // The logged order stands in for a candidate that is "what served" (a cleared alias has its modal list).
        candidate: [...(candidate ?? new Map([...window.queries].map(([q, l]) => [q, l.modalList])))],
        ...(baseline ? { baseline: [...baseline] } : {}),
        estimator: job.estimator,
        metrics: job.metrics,
        depth: job.depth,
      };
      const output: EstimationOutput = background && this.deps.options.thread ? await estimateOnThread(input) : estimate(input);
      await store.finish(job.id, { status: 'done', result: JSON.stringify(toStoredResult(output)) }, this.deps.clock.now());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await store.finish(job.id, { status: 'failed', error: message }, this.deps.clock.now());
      // A small evaluation's failure is its request's (the stored row keeps it too).
      if (!background) throw error;
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * A candidate version trained on feedback from this very window learned from the clicks the
   * estimators read: its prediction is optimistic. Says how much of the window it saw, and where
   * an honest window starts.
   */
  private async trainingOverlap(candidate: ResolvedSource, window: { start: number; end: number }, searches: number): Promise<string[]> {
    if ((candidate.kind !== 'model' && candidate.kind !== 'alias') || candidate.modelId === null || candidate.version === null) return [];
    const trained = await this.deps.ports.trainingWindow(candidate.modelId, candidate.version);
    if (trained === null) return [];
    const overlap = { start: Math.max(window.start, trained.start), end: Math.min(window.end, trained.end) };
    if (overlap.start >= overlap.end) return [];
    // What the run read: logged in its window and already received when it ran.
    const seen = await this.deps.store.countSearches(overlap, trained.readBy);
    if (seen === 0) return [];
    // A few overlapping searches would round to "0 %", which reads as no overlap at all.
    const percent = (100 * seen) / searches;
    const share = percent < 1 ? 'under 1' : String(Math.round(percent));
    return [
      `v${candidate.version} of ${candidate.modelId} learned from the feedback of ${toIso(trained.start)} – ${toIso(trained.end)}, ` +
        `which holds ${share} % of this window's searches: it is scored on clicks it was trained on, so the prediction is optimistic. ` +
        `For an honest one, evaluate a window that starts at ${toIso(trained.readBy)} or later.`,
    ];
  }

  async get(evaluationId: string): Promise<EvaluationView> {
    const found = await this.deps.store.get(evaluationId);
    if (!found) throw new NotFoundError(`evaluation ${evaluationId} not found`);
    return toEvaluationView(found, this.deps.clock.now());
  }

  async list(query: EvaluationListQuery): Promise<Page<EvaluationView>> {
    const after = decodeNewestFirstCursor(query.cursor);
    const rows = await this.deps.store.list({ modelId: query.modelId, after }, query.limit + 1);
    const page = toPage(rows, query.limit, keyOfNewestFirst);
    const now = this.deps.clock.now();
    return { items: page.items.map((r) => toEvaluationView(r, now)), nextCursor: page.nextCursor };
  }

  positionBias(query: PositionBiasQuery): Promise<PositionBiasView> {
    return positionBias(this.deps.store, this.deps.clock.now(), query);
  }

  async trackRecord(): Promise<TrackRecordView> {
    const [evaluations, outcomes] = await Promise.all([this.deps.store.listDoneWithModel(), this.deps.outcomes.modelBackedOutcomes()]);
    return trackRecord(evaluations, outcomes);
  }

  /** Background evaluations still running (the module's close waits for them). */
  async idle(): Promise<void> {
    await Promise.all([...this.running]);
  }
}
