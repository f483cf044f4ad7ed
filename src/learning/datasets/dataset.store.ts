/** The latest LETOR upload of a ranker trained from a dataset (one per model). */
export interface DatasetRecord {
  modelId: string;
  format: 'letor';
  content: string;
  bytes: number;
  rows: number;
  queries: number;
  features: number;
  uploadedAt: number;
}

export type DatasetInfo = Omit<DatasetRecord, 'content'>;

export interface DatasetStore {
  /** Replaces the model's dataset. */
  save(dataset: DatasetRecord): Promise<void>;
  get(modelId: string): Promise<DatasetRecord | undefined>;
  /** The dataset without its content. */
  getInfo(modelId: string): Promise<DatasetInfo | undefined>;
}
