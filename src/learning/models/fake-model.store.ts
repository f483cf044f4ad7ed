import { pageNewestFirst } from '../../common/pagination.js';
import type { FakeLearningData } from '../model/fake-learning-data.js';
import type { ModelFilter, ModelStore } from './model.store.js';
import type { NewJob } from '../model/training-job.js';
import type { ModelRecord } from '../model/model-types.js';
import type { WriteQueuedJob } from '../ports/training-queue.js';

/** In-memory ModelStore for service unit tests; test/contract holds it to the Kysely store. */
export class FakeModelStore implements ModelStore {
  constructor(
    readonly data: FakeLearningData,
    /** The fake training-job store's writer, as the Kysely model store gets the real one. */
    private readonly writeQueuedJob: WriteQueuedJob<FakeLearningData>,
  ) {}

  async insert(model: ModelRecord, initialJob?: NewJob) {
    const models = this.data.models;
    if (models.has(model.id) || [...models.values()].some((m) => m.name === model.name)) return 'duplicate' as const;
    // The job first: if its write fails, nothing is written (one transaction, as in the database).
    if (initialJob) await this.writeQueuedJob(this.data, initialJob);
    models.set(model.id, structuredClone(model));
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
