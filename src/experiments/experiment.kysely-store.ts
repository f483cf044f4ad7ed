import type { Kysely, Selectable } from 'kysely';
import type { Database, ExperimentTable } from '../storage/schema.js';
import { isUniqueViolation } from '../storage/sql-errors.js';
import type { ExperimentStatus } from './experiment.schemas.js';
import type { ExperimentConfiguration, ExperimentFilter, ExperimentRecord, ExperimentStore } from './experiment.store.js';

function fromRow(row: Selectable<ExperimentTable>): ExperimentRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status as ExperimentStatus,
    startDate: row.start_date,
    endDate: row.end_date,
    configuration: JSON.parse(row.configuration) as ExperimentConfiguration,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class KyselyExperimentStore implements ExperimentStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(e: ExperimentRecord): Promise<'inserted' | 'duplicate'> {
    try {
      await this.db
        .insertInto('experiments')
        .values({
          id: e.id,
          name: e.name,
          description: e.description,
          status: e.status,
          start_date: e.startDate,
          end_date: e.endDate,
          configuration: JSON.stringify(e.configuration),
          created_at: e.createdAt,
          updated_at: e.updatedAt,
        })
        .execute();
      return 'inserted';
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      throw error;
    }
  }

  async get(id: string): Promise<ExperimentRecord | undefined> {
    const row = await this.db.selectFrom('experiments').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async list(filter: ExperimentFilter, limit: number): Promise<ExperimentRecord[]> {
    let query = this.db.selectFrom('experiments').selectAll();
    if (filter.status) query = query.where('status', '=', filter.status);
    const after = filter.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(fromRow);
  }
}
