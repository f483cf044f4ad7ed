import type { DatasetRecord } from '../model/dataset-record.js';
import type { DatasetReads } from '../ports/dataset-reads.js';

export interface DatasetStore extends DatasetReads {
  /** Replaces the model's dataset. */
  save(dataset: DatasetRecord): Promise<void>;
}
