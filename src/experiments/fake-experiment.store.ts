import type { ExperimentFilter, ExperimentRecord, ExperimentStore } from './experiment.store.js';

/** In-memory ExperimentStore for service unit tests. */
export class FakeExperimentStore implements ExperimentStore {
  readonly experiments = new Map<string, ExperimentRecord>();

  async insert(e: ExperimentRecord) {
    if ([...this.experiments.values()].some((x) => x.name === e.name)) return 'duplicate' as const;
    this.experiments.set(e.id, structuredClone(e));
    return 'inserted' as const;
  }

  async get(id: string) {
    const found = this.experiments.get(id);
    return found ? structuredClone(found) : undefined;
  }

  async list(filter: ExperimentFilter, limit: number) {
    const after = filter.after;
    return [...this.experiments.values()]
      .filter((e) => !filter.status || e.status === filter.status)
      .filter((e) => !after || e.createdAt < after.createdAt || (e.createdAt === after.createdAt && e.id < after.id))
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }
}
