import type { Kysely, Selectable } from 'kysely';
import type { Database, ModelTable } from '../../storage/schema.js';
import { newestFirstPage } from '../../storage/newest-first.js';
import { isUniqueViolation } from '../../storage/sql-errors.js';
import type { ModelRecord, ModelStatus, ModelType } from '../model/model-types.js';
import type { ModelFilter, ModelStore } from './model.store.js';
import type { NewJob } from '../model/training-job.js';
import type { WriteQueuedJob } from '../ports/training-queue.js';

function fromRow(row: Selectable<ModelTable>): ModelRecord {
  return {
    id: row.id,
    name: row.name,
    type: row.type as ModelType,
    status: row.status as ModelStatus,
    config: JSON.parse(row.config) as Record<string, unknown>,
    metrics: JSON.parse(row.metrics) as Record<string, unknown>,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class KyselyModelStore implements ModelStore {
  constructor(
    private readonly db: Kysely<Database>,
    /** The training-job store's insert: the first job is written in the model's transaction, by its one writer. */
    private readonly writeQueuedJob: WriteQueuedJob<Kysely<Database>>,
  ) {}

  async insert(model: ModelRecord, initialJob?: NewJob): Promise<'inserted' | 'duplicate'> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('models')
          .values({
            id: model.id,
            name: model.name,
            type: model.type,
            status: model.status,
            config: JSON.stringify(model.config),
            metrics: JSON.stringify(model.metrics),
            error: model.error,
            created_at: model.createdAt,
            updated_at: model.updatedAt,
          })
          .execute();
        if (initialJob) await this.writeQueuedJob(trx, initialJob);
      });
      return 'inserted';
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      throw error;
    }
  }

  async get(id: string): Promise<ModelRecord | undefined> {
    const row = await this.db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async list(filter: ModelFilter, limit: number): Promise<ModelRecord[]> {
    let query = this.db.selectFrom('models').selectAll();
    if (filter.type) query = query.where('type', '=', filter.type);
    if (filter.status) query = query.where('status', '=', filter.status);
    const rows = await newestFirstPage(query, filter.after, limit).execute();
    return rows.map(fromRow);
  }
}
