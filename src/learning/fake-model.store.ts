import { pageNewestFirst } from '../common/pagination.js';
import type { ModelFilter, ModelRecord, ModelStore } from './model.store.js';
import type { NewJob } from './training.store.js';

/** In-memory ModelStore for service unit tests. */
export class FakeModelStore implements ModelStore {
  readonly models = new Map<string, ModelRecord>();
  readonly initialJobs: NewJob[] = [];

  async insert(model: ModelRecord, initialJob?: NewJob) {
    if (this.models.has(model.id) || [...this.models.values()].some((m) => m.name === model.name)) return 'duplicate' as const;
    this.models.set(model.id, structuredClone(model));
    if (initialJob) this.initialJobs.push(structuredClone(initialJob));
    return 'inserted' as const;
  }

  async get(id: string) {
    const found = this.models.get(id);
    return found ? structuredClone(found) : undefined;
  }

  async list(filter: ModelFilter, limit: number) {
    const matching = [...this.models.values()].filter(
      (m) => (!filter.type || m.type === filter.type) && (!filter.status || m.status === filter.status),
    );
    return pageNewestFirst(matching, filter.after, limit).map((m) => structuredClone(m));
  }
}
