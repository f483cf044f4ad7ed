import type { DatasetInfo, DatasetRecord } from '../model/dataset-record.js';

/** What training reads of a ranker's uploaded dataset (DatasetStore implements it; learning.module.ts hands it over). */
export interface DatasetReads {
  get(modelId: string): Promise<DatasetRecord | undefined>;
  /** The dataset without its content. */
  getInfo(modelId: string): Promise<DatasetInfo | undefined>;
}
