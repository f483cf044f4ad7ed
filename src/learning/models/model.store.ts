import type { ModelStatus, ModelType } from '../model/model-types.js';
import type { NewJob } from '../training/training-job.store.js';

export interface ModelRecord {
  id: string;
  name: string;
  type: ModelType;
  status: ModelStatus;
  config: Record<string, unknown>;
  metrics: Record<string, unknown>;
  error: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface ModelFilter {
  type?: ModelType;
  status?: ModelStatus;
  /** Keyset position: rows strictly after (createdAt desc, id desc). */
  after?: { createdAt: number; id: string };
}

export interface ModelStore {
  /**
   * Returns 'duplicate' (and writes nothing) when the id or the name is taken. With
   * `initialJob`, the model and its first training job are written in one transaction.
   */
  insert(model: ModelRecord, initialJob?: NewJob): Promise<'inserted' | 'duplicate'>;
  get(id: string): Promise<ModelRecord | undefined>;
  /** Newest first. */
  list(filter: ModelFilter, limit: number): Promise<ModelRecord[]>;
}
