import type { Kysely, Selectable } from 'kysely';
import type { Database, InterleavedQueryTable } from '../../storage/schema.js';
import type { InterleavedQueryRecord, InterleavedQueryStore } from './interleaved-query.store.js';

export function interleavedFromRow(r: Selectable<InterleavedQueryTable>): InterleavedQueryRecord {
  const list = JSON.parse(r.list) as Pick<InterleavedQueryRecord, 'teams' | 'depth' | 'results'>;
  return {
    experimentId: r.experiment_id,
    phase: r.phase,
    unitId: r.unit_id,
    queryId: r.query_id,
    recordedAt: Number(r.recorded_at),
    teams: list.teams,
    depth: list.depth,
    results: list.results,
    credit: r.credit === null ? null : (JSON.parse(r.credit) as InterleavedQueryRecord['credit']),
  };
}

export class KyselyInterleavedQueryStore implements InterleavedQueryStore {
  constructor(private readonly db: Kysely<Database>) {}

  async record(row: InterleavedQueryRecord): Promise<boolean> {
    const result = await this.db
      .insertInto('interleaved_queries')
      .values({
        experiment_id: row.experimentId,
        phase: row.phase,
        unit_id: row.unitId,
        query_id: row.queryId,
        recorded_at: row.recordedAt,
        list: JSON.stringify({ teams: row.teams, depth: row.depth, results: row.results }),
        credit: row.credit === null ? null : JSON.stringify(row.credit),
      })
      .onConflict((oc) => oc.columns(['experiment_id', 'phase', 'unit_id', 'query_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async listForPhase(experimentId: string, phase: number): Promise<InterleavedQueryRecord[]> {
    const rows = await this.db
      .selectFrom('interleaved_queries')
      .selectAll()
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .orderBy('unit_id')
      .orderBy('query_id')
      .execute();
    return rows.map(interleavedFromRow);
  }
}
