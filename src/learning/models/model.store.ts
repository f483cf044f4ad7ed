import type { ModelStatus, ModelType } from '../model/model-types.js';
import type { NewJob } from '../model/training-job.js';
import type { ModelRecord } from '../model/model-types.js';
import type { ModelLookup } from '../ports/model-registry.js';

export interface ModelFilter {
  type?: ModelType;
  status?: ModelStatus;
  /** Keyset position: rows strictly after (createdAt desc, id desc). */
  after?: { createdAt: number; id: string };
}

export interface ModelStore extends ModelLookup {
  /**
   * Returns 'duplicate' (and writes nothing) when the id or the name is taken. With
   * `initialJob`, the model and its first training job are written in one transaction.
   */
  insert(model: ModelRecord, initialJob?: NewJob): Promise<'inserted' | 'duplicate'>;
  /** Newest first. */
  list(filter: ModelFilter, limit: number): Promise<ModelRecord[]>;
}
