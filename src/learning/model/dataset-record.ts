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
