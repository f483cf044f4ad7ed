import { performance } from 'node:perf_hooks';
import { toIso, type Clock } from '../../common/clock.js';
import { SILENT_EVENTS, type DomainEventLog } from '../../common/domain-events.js';
import { newId } from '../../common/ids.js';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors.js';
import type { DatasetReads } from '../ports/dataset-reads.js';
import type { ModelLookup, ModelVersionReads, RetrainSchedule } from '../ports/model-registry.js';
import { resolveSettings, type ModelSettings } from '../model/model-config.js';
import type { ModelStatus } from '../model/model-types.js';
import { appendRow, emptyColumns, type FeedbackColumns } from './runs/feedback-columns.js';
import type { TrainingInput, TrainingOutput } from './runs/protocol.js';
import type { TrainingDataStore, FeedbackCursor } from './training-data.store.js';
import type { TrainingRunner } from './training-pool.js';
import type { CompletedRun, TrainingJobStore } from './training-job.store.js';
import type { TrainBody } from './training.schemas.js';
import type { ModelRecord } from '../model/model-types.js';
import type { NewJob, TrainingJob } from '../model/training-job.js';
import type { TrainingJobView } from '../model/learning.schemas.js';
import { toJobView } from '../model/training-job-view.js';
import { trainingEvents } from './training-events.js';

export interface TrainingOptions {
  /** Identifies this instance in job leases. */
  owner: string;
  /** A claimed job is another instance's to take over once its lease is this old without a heartbeat. */
  leaseMs: number;
  heartbeatMs: number;
  /** Feedback rows read per query: pages keep the event loop free between them. */
  pageSize: number;
  /** A scheduled model with no data and no version yet looks again this soon. */
  noDataRetryMs: number;
  /** A job whose instance died this many times is failed rather than claimed again. */
  maxAttempts: number;
}

export const DEFAULT_TRAINING_OPTIONS: Omit<TrainingOptions, 'owner'> = {
  leaseMs: 5 * 60_000,
  heartbeatMs: 60_000,
  pageSize: 5000,
  noDataRetryMs: 60_000,
  maxAttempts: 3,
};

/** Feedback may be stamped up to 5 minutes ahead of the receive time (feedback rules). */
const FUTURE_SKEW_MS = 5 * 60_000;

function needsFeedback(s: ModelSettings): boolean {
  return s.kind !== 'ranker' || s.trainingData !== 'dataset';
}

/** The window a run started now reads. */
function trainingWindow(settings: ModelSettings, now: number): { start: number; end: number } {
  return { start: now - settings.windowMs, end: now + FUTURE_SKEW_MS };
}

const fmt = (x: number | null): string => (x === null ? 'n/a' : x.toPrecision(5));

/** What the training service works with: the registry's reads (ports), its own queue and read model, the worker runner. */
export interface TrainingServiceDependencies {
  models: ModelLookup;
  jobs: TrainingJobStore;
  versions: Pick<ModelVersionReads, 'getState' | 'getArtifact'> & RetrainSchedule;
  datasets: DatasetReads;
  data: TrainingDataStore;
  runner: TrainingRunner;
  clock: Clock;
  options: TrainingOptions;
  /** A line per version trained, activated or rejected and per failed run (silent when absent). */
  events?: DomainEventLog;
}

/**
 * The training lifecycle: queue a run, claim it, read its data, fit it in a worker thread,
 * record a version and decide whether it replaces the active one.
 */
export class TrainingService {
  constructor(private readonly deps: TrainingServiceDependencies) {}

  private stopped = false;

  /** At shutdown: a run cut short is left to its lease (the next claimer takes it over), not failed. */
  stop(): void {
    this.stopped = true;
  }

  private async model(modelId: string): Promise<ModelRecord> {
    const model = await this.deps.models.get(modelId);
    if (!model) throw new NotFoundError(`model ${modelId} not found`);
    return model;
  }

  /** `POST …/train`: 409 while a run is queued or going. */
  async requestTraining(modelId: string, body: TrainBody): Promise<TrainingJobView> {
    const model = await this.model(modelId);
    if (model.status === 'archived') throw new ConflictError(`model ${modelId} is archived`);
    const open = await this.deps.jobs.openJobs(modelId);
    if (open.length > 0) {
      const running = open.some((j) => j.status === 'running');
      throw new ConflictError(`model ${modelId} ${running ? 'is already training' : 'already has a training run queued'}`);
    }
    const settings = resolveSettings(model.type, model.config);
    if (settings.kind === 'ranker' && settings.trainingData === 'dataset' && !(await this.deps.datasets.getInfo(modelId))) {
      throw new ConflictError(
        `ranker ${modelId} trains from an uploaded dataset and none was uploaded: POST it to /api/nous/learn/models/${modelId}/dataset`,
      );
    }
    if (
      settings.kind === 'ranker' &&
      settings.debiasing === 'ips' &&
      settings.propensities === undefined &&
      !(await this.deps.data.hasImpressions(trainingWindow(settings, this.deps.clock.now())))
    ) {
      throw ValidationError.field(
        '/config/propensities',
        `ranker ${modelId} debiases clicks by ips with propensities harvested from its training window, and the window holds no search with impressions to estimate them from: set config.propensities, or send impressions (with positions) first`,
      );
    }
    const job = this.newJob(modelId, 'manual', body.force ?? false);
    if ((await this.deps.jobs.enqueue(job)) === 'already-queued')
      throw new ConflictError(`model ${modelId} already has a training run queued`);
    return toJobView(job);
  }

  newJob(modelId: string, reason: NewJob['reason'], force = false): NewJob {
    const now = this.deps.clock.now();
    return { id: newId(), modelId, reason, force, runAfter: now, requestedAt: now };
  }

  /** Queues retrains whose schedule is due; returns how many were queued. */
  async scheduleDue(): Promise<number> {
    let queued = 0;
    for (const modelId of await this.deps.versions.takeDueRetrains(this.deps.clock.now(), 100)) {
      if ((await this.deps.jobs.enqueue(this.newJob(modelId, 'schedule'))) === 'queued') queued += 1;
    }
    return queued;
  }

  /** Claims and runs one due job; false when there was none. */
  async runNext(): Promise<boolean> {
    const job = await this.deps.jobs.claim(this.deps.options.owner, this.deps.clock.now(), this.deps.options.leaseMs);
    if (!job) return false;
    const heartbeat = setInterval(() => {
      this.deps.jobs.extendLease(job.id, this.deps.options.owner, this.deps.clock.now() + this.deps.options.leaseMs).catch(() => undefined);
    }, this.deps.options.heartbeatMs);
    heartbeat.unref();
    try {
      await this.execute(job);
    } finally {
      clearInterval(heartbeat);
    }
    return true;
  }

  /** Runs due jobs until none is left (tests and the queue task). */
  async runUntilIdle(shouldStop: () => boolean = () => false): Promise<number> {
    let n = 0;
    while (!shouldStop() && (await this.runNext())) n += 1;
    return n;
  }

  private async readWindow(window: { start: number; end: number }): Promise<FeedbackColumns> {
    const cols = emptyColumns();
    let after: FeedbackCursor | undefined;
    for (;;) {
      const page = await this.deps.data.readPage(window, after, this.deps.options.pageSize);
      for (const row of page.rows) appendRow(cols, row);
      if (page.rows.length < this.deps.options.pageSize) return cols;
      after = page.last;
    }
  }

  private async execute(job: TrainingJob): Promise<void> {
    const now = this.deps.clock.now();
    const model = await this.deps.models.get(job.modelId);
    const state = await this.deps.versions.getState(job.modelId);
    const activeVersion = state?.activeVersion ?? null;
    const base = { jobId: job.id, owner: this.deps.options.owner };
    const fail = (message: string, retrainEveryMs?: number) =>
      this.complete(job.modelId, activeVersion, {
        ...base,
        finishedAt: this.deps.clock.now(),
        jobStatus: 'failed',
        jobError: message,
        // A failed retrain leaves the active version serving: the model stays ready and says why.
        model: { status: activeVersion === null ? 'failed' : 'ready', error: message },
        outcome: { at: this.deps.clock.now(), outcome: 'failed', message },
        nextRetrainAt: retrainEveryMs === undefined ? null : this.deps.clock.now() + retrainEveryMs,
      });
    if (!model) return void (await fail('the model no longer exists'));
    let settings: ModelSettings;
    try {
      settings = resolveSettings(model.type, model.config);
    } catch (error) {
      return void (await fail(`invalid config: ${(error as Error).message}`));
    }
    if (job.attempts > this.deps.options.maxAttempts) {
      return void (await fail(
        `gave up after ${this.deps.options.maxAttempts} attempts: the instance running it stopped each time`,
        settings.retrainEveryMs,
      ));
    }
    const window = trainingWindow(settings, now);
    const input: TrainingInput = { settings, window };
    try {
      if (needsFeedback(settings)) input.feedback = await this.readWindow(window);
      if (settings.kind === 'ranker' && settings.trainingData === 'dataset') {
        const dataset = await this.deps.datasets.get(job.modelId);
        if (dataset) input.dataset = dataset.content;
      }
      if (settings.kind === 'ranker' && settings.trainingData === 'feedback' && settings.clickModel !== undefined) {
        const source = await this.deps.models.get(settings.clickModel);
        if (!source || source.type !== 'click_model')
          return void (await fail(`config.clickModel ${settings.clickModel} is not a click_model`, settings.retrainEveryMs));
        const sourceState = await this.deps.versions.getState(source.id);
        if (sourceState?.activeVersion == null)
          return void (await fail(`click model ${source.id} has no trained version yet`, settings.retrainEveryMs));
        input.judgmentsArtifact = await this.deps.versions.getArtifact(source.id, sourceState.activeVersion);
      }
      if (activeVersion !== null) input.activeArtifact = await this.deps.versions.getArtifact(job.modelId, activeVersion);
    } catch (error) {
      return void (await fail(`could not read the training data: ${(error as Error).message}`, settings.retrainEveryMs));
    }
    const started = performance.now();
    let output: TrainingOutput;
    try {
      output = await this.deps.runner.run(input);
    } catch (error) {
      if (this.stopped) return;
      return void (await fail(`training failed: ${(error as Error).message}`, settings.retrainEveryMs));
    }
    const trainingSeconds = (performance.now() - started) / 1000;
    await this.record(job, settings, output, trainingSeconds, window, activeVersion);
  }

  private async record(
    job: TrainingJob,
    settings: ModelSettings,
    output: TrainingOutput,
    trainingSeconds: number,
    window: { start: number; end: number },
    activeVersion: number | null,
  ) {
    const finishedAt = this.deps.clock.now();
    const base = { jobId: job.id, owner: this.deps.options.owner, finishedAt };
    const every = settings.retrainEveryMs;
    if (output.kind === 'no-data') {
      if (activeVersion === null && every === undefined) {
        await this.complete(job.modelId, activeVersion, {
          ...base,
          jobStatus: 'failed',
          jobError: output.message,
          model: { status: 'failed', error: output.message },
          outcome: { at: finishedAt, outcome: 'failed', message: output.message },
          nextRetrainAt: null,
        });
        return;
      }
      // Scheduled models wait for data: soon while they have no version, at the next retrain otherwise.
      const status: ModelStatus = activeVersion === null ? 'pending' : 'ready';
      const next = activeVersion === null ? finishedAt + this.deps.options.noDataRetryMs : finishedAt + (every as number);
      await this.complete(job.modelId, activeVersion, {
        ...base,
        jobStatus: 'succeeded',
        jobError: null,
        model: { status, error: null },
        outcome: { at: finishedAt, outcome: 'skipped', message: output.message },
        nextRetrainAt: every === undefined ? null : next,
      });
      return;
    }
    const { comparison: c } = output;
    const worse = c.active !== null && c.value !== null && (c.higherIsBetter ? c.value < c.active : c.value > c.active);
    const activate = activeVersion === null || !worse || job.force || settings.replaceIfWorse;
    let message: string | null = null;
    if (worse) {
      message = activate
        ? `held-out ${c.metric} ${fmt(c.value)} is worse than version ${activeVersion}'s ${fmt(c.active)}; activated because ${job.force ? 'force was set' : 'config.replaceIfWorse is true'}`
        : `held-out ${c.metric} ${fmt(c.value)} is worse than active version ${activeVersion}'s ${fmt(c.active)} on the same data; version ${activeVersion} stays active (retrain with force: true or set config.replaceIfWorse to replace it)`;
    }
    const windowView = { from: toIso(window.start), to: toIso(window.end) };
    const metrics = { ...output.metrics, trainingSeconds, window: windowView, counts: output.counts, comparedOn: { ...c } };
    await this.complete(job.modelId, activeVersion, {
      ...base,
      jobStatus: 'succeeded',
      jobError: null,
      version: {
        modelId: job.modelId,
        jobId: job.id,
        outcome: activate ? 'activated' : 'rejected',
        message,
        metrics,
        counts: output.counts,
        windowStart: window.start,
        windowEnd: window.end,
        trainingSeconds,
        createdAt: finishedAt,
        artifact: output.artifact,
      },
      model: { status: 'ready', error: null, ...(activate ? { metrics } : {}) },
      outcome: { at: finishedAt, outcome: activate ? 'activated' : 'rejected', message },
      nextRetrainAt: every === undefined ? null : finishedAt + every,
    });
  }

  private async complete(modelId: string, activeBefore: number | null, run: CompletedRun): Promise<void> {
    const written = await this.deps.jobs.complete(run);
    // 'lease-lost': another instance took the job over after ours looked dead; its result (and line) stands.
    if (written === 'lease-lost') return;
    const events = this.deps.events ?? SILENT_EVENTS;
    for (const e of trainingEvents(modelId, run, written.version, activeBefore)) events.record(e.event, e.fields, e.message);
  }
}
