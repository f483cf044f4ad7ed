import { FakeLearningData } from '../model/fake-learning-data.js';
import type { DatasetStore } from './dataset.store.js';
import type { DatasetRecord } from '../model/dataset-record.js';

/** In-memory DatasetStore; test/contract holds it to the Kysely store. */
export class FakeDatasetStore implements DatasetStore {
  constructor(readonly data = new FakeLearningData()) {}

  async save(dataset: DatasetRecord) {
    this.data.datasets.set(dataset.modelId, { ...dataset });
  }

  async get(modelId: string) {
    const found = this.data.datasets.get(modelId);
    return found ? { ...found } : undefined;
  }

  async getInfo(modelId: string) {
    const found = this.data.datasets.get(modelId);
    if (!found) return undefined;
    const { content: _content, ...info } = found;
    return info;
  }
}
