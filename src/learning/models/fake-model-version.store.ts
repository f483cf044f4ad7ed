import { FakeLearningData } from '../model/fake-learning-data.js';
import type { ImportedVersionWrite, ModelVersionStore } from './model-version.store.js';
import type { ModelVersion, TrainingState } from '../model/model-version.js';

/** In-memory ModelVersionStore over the shared fake tables; test/contract holds it to the Kysely store. */
export class FakeModelVersionStore implements ModelVersionStore {
  constructor(readonly data = new FakeLearningData()) {}

  async getState(modelId: string) {
    const state = this.data.states.get(modelId);
    return state ? structuredClone(state) : undefined;
  }

  async getStates(modelIds: readonly string[]) {
    const out = new Map<string, TrainingState>();
    for (const id of modelIds) {
      const state = this.data.states.get(id);
      if (state) out.set(id, structuredClone(state));
    }
    return out;
  }

  async listVersions(modelId: string, limit: number, beforeVersion?: number): Promise<ModelVersion[]> {
    return this.data.versions
      .filter((v) => v.modelId === modelId && (beforeVersion === undefined || v.version < beforeVersion))
      .sort((a, b) => b.version - a.version)
      .slice(0, limit)
      .map(({ artifact: _artifact, ...v }) => structuredClone(v));
  }

  async getArtifact(modelId: string, version: number) {
    return this.data.versions.find((v) => v.modelId === modelId && v.version === version)?.artifact;
  }

  async takeDueRetrains(now: number, limit: number) {
    const due = [...this.data.states.values()]
      .filter((s) => s.nextRetrainAt !== null && s.nextRetrainAt <= now)
      .sort((a, b) => (a.nextRetrainAt as number) - (b.nextRetrainAt as number))
      .slice(0, limit);
    for (const s of due) s.nextRetrainAt = null;
    return due.map((s) => s.modelId);
  }

  async insertImported(w: ImportedVersionWrite) {
    let state = this.data.states.get(w.modelId);
    if (!state) {
      state = { modelId: w.modelId, activeVersion: null, latestVersion: 0, lastOutcome: null, nextRetrainAt: null };
      this.data.states.set(w.modelId, state);
    }
    const activeBefore = state.activeVersion;
    const version = state.latestVersion + 1;
    this.data.versions.push(
      structuredClone({
        modelId: w.modelId,
        version,
        jobId: w.importId,
        outcome: w.outcome,
        message: w.message,
        metrics: { version, ...w.metrics },
        counts: w.counts,
        windowStart: null,
        windowEnd: null,
        trainingSeconds: 0,
        createdAt: w.createdAt,
        artifact: w.artifact,
      }),
    );
    state.latestVersion = version;
    if (w.outcome === 'activated') state.activeVersion = version;
    state.lastOutcome = structuredClone({ ...w.lastOutcome, version });
    const model = this.data.models.get(w.modelId);
    if (model && w.outcome === 'activated') {
      if (model.status !== 'ready') model.updatedAt = w.createdAt;
      model.status = 'ready';
      model.error = null;
      model.metrics = structuredClone({ version, ...w.modelMetrics });
    }
    return { version, activeBefore };
  }
}
