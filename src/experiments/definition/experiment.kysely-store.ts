import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ExperimentEventTable, ExperimentPhaseTable, ExperimentTable } from '../../storage/schema.js';
import { newestFirstPage } from '../../storage/newest-first.js';
import { isUniqueViolation } from '../../storage/sql-errors.js';
import { ANALYSIS_DEFAULTS } from '../model/experiment-rules.js';
import type { ExperimentState } from '../model/lifecycle.js';
import type { AliasMove } from '../ports/model-catalog.js';
import type {
  Conclusion,
  ExperimentChange,
  ExperimentConfiguration,
  ExperimentEvent,
  ExperimentFilter,
  ExperimentRecord,
  ExperimentStore,
  PhaseRecord,
} from '../model/experiment.store.js';

/** Settings added after a row was written read as their defaults. */
function withAnalysisDefaults(c: ExperimentConfiguration): ExperimentConfiguration {
  return { ...c, analysis: { ...ANALYSIS_DEFAULTS, ...c.analysis } };
}

function fromRow(row: Selectable<ExperimentTable>): ExperimentRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status as ExperimentState,
    startDate: row.start_date,
    endDate: row.end_date,
    configuration: withAnalysisDefaults(JSON.parse(row.configuration) as ExperimentConfiguration),
    phase: row.phase,
    conclusion: row.conclusion ? (JSON.parse(row.conclusion) as Conclusion) : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(e: ExperimentRecord) {
  return {
    name: e.name,
    description: e.description,
    status: e.status,
    start_date: e.startDate,
    end_date: e.endDate,
    configuration: JSON.stringify(e.configuration),
    phase: e.phase,
    conclusion: e.conclusion ? JSON.stringify(e.conclusion) : null,
    updated_at: e.updatedAt,
  };
}

const phaseFromRow = (row: Selectable<ExperimentPhaseTable>): PhaseRecord => ({
  experimentId: row.experiment_id,
  phase: row.phase,
  seed: row.seed,
  configuration: JSON.parse(row.configuration) as ExperimentConfiguration,
  startedAt: row.started_at,
  endedAt: row.ended_at,
});

const eventFromRow = (row: Selectable<ExperimentEventTable>): ExperimentEvent => ({
  id: row.id,
  experimentId: row.experiment_id,
  at: row.at,
  actor: row.actor,
  action: row.action,
  before: row.before === null ? null : JSON.parse(row.before),
  after: row.after === null ? null : JSON.parse(row.after),
});

const eventToRow = (event: ExperimentEvent) => ({
  id: event.id,
  experiment_id: event.experimentId,
  at: event.at,
  actor: event.actor,
  action: event.action,
  before: event.before === undefined || event.before === null ? null : JSON.stringify(event.before),
  after: event.after === undefined || event.after === null ? null : JSON.stringify(event.after),
});

export class KyselyExperimentStore implements ExperimentStore {
  constructor(
    private readonly db: Kysely<Database>,
    /** Writes a promotion's alias move in the conclusion's transaction (the learning module's, via the container). */
    private readonly aliasWriter?: (trx: Kysely<Database>, move: AliasMove) => Promise<void>,
  ) {}

  async insert(e: ExperimentRecord, event: ExperimentEvent): Promise<'inserted' | 'duplicate'> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('experiments')
          .values({ id: e.id, created_at: e.createdAt, ...toColumns(e) })
          .execute();
        await trx.insertInto('experiment_events').values(eventToRow(event)).execute();
      });
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
    const rows = await newestFirstPage(query, filter.after, limit).execute();
    return rows.map(fromRow);
  }

  async update(change: ExperimentChange, expectedUpdatedAt: number): Promise<'updated' | 'stale' | 'duplicate'> {
    const { next, event } = change;
    try {
      return await this.db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('experiments')
          .set(toColumns(next))
          .where('id', '=', next.id)
          .where('updated_at', '=', expectedUpdatedAt)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return 'stale' as const;
        if (change.endPhaseAt !== undefined) {
          await trx
            .updateTable('experiment_phases')
            .set({ ended_at: change.endPhaseAt })
            .where('experiment_id', '=', next.id)
            .where('ended_at', 'is', null)
            .execute();
        }
        if (change.startPhase) {
          const p = change.startPhase;
          await trx
            .insertInto('experiment_phases')
            .values({
              experiment_id: p.experimentId,
              phase: p.phase,
              seed: p.seed,
              configuration: JSON.stringify(p.configuration),
              started_at: p.startedAt,
              ended_at: null,
            })
            .execute();
        }
        await trx.insertInto('experiment_events').values(eventToRow(event)).execute();
        if (change.aliasMove) {
          if (!this.aliasWriter) throw new Error('no alias writer is wired: cannot promote');
          await this.aliasWriter(trx, change.aliasMove);
        }
        return 'updated' as const;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      throw error;
    }
  }

  async listEvents(experimentId: string, afterId: string | undefined, limit: number): Promise<ExperimentEvent[]> {
    let query = this.db.selectFrom('experiment_events').selectAll().where('experiment_id', '=', experimentId);
    if (afterId !== undefined) query = query.where('id', '>', afterId);
    return (await query.orderBy('id').limit(limit).execute()).map(eventFromRow);
  }

  async getPhase(experimentId: string, phase: number): Promise<PhaseRecord | undefined> {
    const row = await this.db
      .selectFrom('experiment_phases')
      .selectAll()
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .executeTakeFirst();
    return row ? phaseFromRow(row) : undefined;
  }

  async listPhases(experimentIds: string[]): Promise<PhaseRecord[]> {
    if (experimentIds.length === 0) return [];
    const rows = await this.db.selectFrom('experiment_phases').selectAll().where('experiment_id', 'in', experimentIds).execute();
    return rows.map(phaseFromRow);
  }

  async listServing(): Promise<ExperimentRecord[]> {
    const rows = await this.db.selectFrom('experiments').selectAll().where('status', 'in', ['running', 'concluded']).execute();
    return rows.map(fromRow);
  }

  async revision(): Promise<string> {
    const row = await this.db
      .selectFrom('experiments')
      .select([sql<number | null>`max(updated_at)`.as('latest'), sql<number>`count(*)`.as('total')])
      .executeTakeFirst();
    return `${row?.latest ?? 0}:${row?.total ?? 0}`;
  }

  async listDue(now: number): Promise<ExperimentRecord[]> {
    const rows = await this.db
      .selectFrom('experiments')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'scheduled'), eb('start_date', '<=', now)]),
          eb.and([eb('status', 'in', ['scheduled', 'running', 'paused']), eb('end_date', '<=', now)]),
        ]),
      )
      .execute();
    return rows.map(fromRow);
  }
}
