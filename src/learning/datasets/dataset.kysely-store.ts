import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { DatasetStore } from './dataset.store.js';
import type { DatasetInfo, DatasetRecord } from '../model/dataset-record.js';

export class KyselyDatasetStore implements DatasetStore {
  constructor(private readonly db: Kysely<Database>) {}

  async save(d: DatasetRecord): Promise<void> {
    const values = {
      format: d.format,
      content: d.content,
      bytes: d.bytes,
      rows: d.rows,
      queries: d.queries,
      features: d.features,
      uploaded_at: d.uploadedAt,
    };
    await this.db
      .insertInto('training_datasets')
      .values({ model_id: d.modelId, ...values })
      .onConflict((oc) => oc.column('model_id').doUpdateSet(values))
      .execute();
  }

  async get(modelId: string): Promise<DatasetRecord | undefined> {
    const row = await this.db.selectFrom('training_datasets').selectAll().where('model_id', '=', modelId).executeTakeFirst();
    return row ? { ...toInfo(row), content: row.content } : undefined;
  }

  async getInfo(modelId: string): Promise<DatasetInfo | undefined> {
    const row = await this.db
      .selectFrom('training_datasets')
      .select(['model_id', 'format', 'bytes', 'rows', 'queries', 'features', 'uploaded_at'])
      .where('model_id', '=', modelId)
      .executeTakeFirst();
    return row ? toInfo(row) : undefined;
  }
}

function toInfo(row: {
  model_id: string;
  bytes: number;
  rows: number;
  queries: number;
  features: number;
  uploaded_at: number;
}): DatasetInfo {
  return {
    modelId: row.model_id,
    format: 'letor',
    bytes: Number(row.bytes),
    rows: row.rows,
    queries: row.queries,
    features: row.features,
    uploadedAt: row.uploaded_at,
  };
}
