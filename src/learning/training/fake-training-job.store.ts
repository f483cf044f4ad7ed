import { FakeLearningData } from '../model/fake-learning-data.js';
import type { CompletedRun, TrainingJobStore } from './training-job.store.js';
import type { LastOutcome } from '../model/model-version.js';
import type { NewJob, TrainingJob } from '../model/training-job.js';
import type { WriteQueuedJob } from '../ports/training-queue.js';

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The one writer of a queued job in the fake tables, as `writeQueuedJob` is in the database. */
export const writeFakeQueuedJob: WriteQueuedJob<FakeLearningData> = async (data, job) => {
  data.jobs.set(job.id, {
    ...job,
    status: 'queued',
    startedAt: null,
    finishedAt: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    attempts: 0,
    error: null,
    version: null,
  });
};

/** In-memory TrainingJobStore over the shared fake tables; test/contract holds it to the Kysely store. */
export class FakeTrainingJobStore implements TrainingJobStore {
  constructor(readonly data = new FakeLearningData()) {}

  private get jobs(): TrainingJob[] {
    return [...this.data.jobs.values()];
  }

  async enqueue(job: NewJob) {
    if (this.jobs.some((j) => j.modelId === job.modelId && j.status === 'queued')) return 'already-queued' as const;
    await writeFakeQueuedJob(this.data, job);
    return 'queued' as const;
  }

  async openJobs(modelId: string) {
    return this.jobs
      .filter((j) => j.modelId === modelId && (j.status === 'queued' || j.status === 'running'))
      .sort((a, b) => a.requestedAt - b.requestedAt)
      .map((j) => ({ ...j }));
  }

  async claim(owner: string, now: number, leaseMs: number) {
    const job = this.jobs
      .filter(
        (j) =>
          ((j.status === 'queued' && j.runAfter <= now) || (j.status === 'running' && (j.leaseExpiresAt ?? Infinity) < now)) &&
          // A queued job waits while its model has another job running.
          !this.jobs.some((r) => r.modelId === j.modelId && r.status === 'running' && r.id !== j.id),
      )
      .sort((a, b) => a.runAfter - b.runAfter || (a.id < b.id ? -1 : 1))[0];
    if (!job) return undefined;
    Object.assign(job, { status: 'running', leaseOwner: owner, leaseExpiresAt: now + leaseMs, startedAt: now, attempts: job.attempts + 1 });
    const model = this.data.models.get(job.modelId);
    if (model && model.status !== 'training') Object.assign(model, { status: 'training', updatedAt: now });
    return { ...job };
  }

  async extendLease(jobId: string, owner: string, until: number) {
    const job = this.data.jobs.get(jobId);
    if (!job || job.leaseOwner !== owner || job.status !== 'running') return false;
    job.leaseExpiresAt = until;
    return true;
  }

  async complete(run: CompletedRun) {
    const job = this.data.jobs.get(run.jobId);
    if (!job || job.status !== 'running' || job.leaseOwner !== run.owner) return 'lease-lost' as const;
    const modelId = job.modelId;
    let state = this.data.states.get(modelId);
    if (!state) {
      state = { modelId, activeVersion: null, latestVersion: 0, lastOutcome: null, nextRetrainAt: null };
      this.data.states.set(modelId, state);
    }
    let version: number | null = null;
    if (run.version) {
      version = state.latestVersion + 1;
      const { metrics, ...rest } = run.version;
      this.data.versions.push(json({ ...rest, modelId, version, jobId: run.jobId, metrics: { version, ...metrics } }));
    }
    const outcome: LastOutcome = { ...run.outcome, version };
    state.latestVersion = version ?? state.latestVersion;
    if (run.version?.outcome === 'activated') state.activeVersion = version;
    state.lastOutcome = json(outcome);
    state.nextRetrainAt = run.nextRetrainAt;
    Object.assign(job, {
      status: run.jobStatus,
      error: run.jobError,
      finishedAt: run.finishedAt,
      version,
      leaseOwner: null,
      leaseExpiresAt: null,
    });
    const model = this.data.models.get(modelId);
    if (model) {
      if (model.status !== run.model.status) model.updatedAt = run.finishedAt;
      model.status = run.model.status;
      model.error = run.model.error;
      if (run.model.metrics) model.metrics = json({ version, ...run.model.metrics });
    }
    return { version };
  }
}
