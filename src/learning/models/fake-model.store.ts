import { pageNewestFirst } from '../../common/pagination.js';
import { FakeLearningData } from '../model/fake-learning-data.js';
import type { ModelFilter, ModelStore } from './model.store.js';
import type { NewJob } from '../model/training-job.js';
import type { ModelRecord } from '../model/model-types.js';

/** In-memory ModelStore for service unit tests; test/contract holds it to the Kysely store. */
export class FakeModelStore implements ModelStore {
  constructor(readonly data = new FakeLearningData()) {}

  async insert(model: ModelRecord, initialJob?: NewJob) {
    const models = this.data.models;
    if (models.has(model.id) || [...models.values()].some((m) => m.name === model.name)) return 'duplicate' as const;
    models.set(model.id, structuredClone(model));
    if (initialJob) {
      this.data.jobs.set(initialJob.id, {
        ...initialJob,
        status: 'queued',
        startedAt: null,
        finishedAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
        attempts: 0,
        error: null,
        version: null,
      });
    }
    return 'inserted' as const;
  }

  async get(id: string) {
    const found = this.data.models.get(id);
    return found ? structuredClone(found) : undefined;
  }

  async list(filter: ModelFilter, limit: number) {
    const matching = [...this.data.models.values()].filter(
      (m) => (!filter.type || m.type === filter.type) && (!filter.status || m.status === filter.status),
    );
    return pageNewestFirst(matching, filter.after, limit).map((m) => structuredClone(m));
  }
}
