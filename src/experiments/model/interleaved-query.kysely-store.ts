import type { Insertable, Kysely, Selectable } from 'kysely';
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

/** Rows per INSERT: 7 parameters each, well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

const toRow = (row: InterleavedQueryRecord): Insertable<InterleavedQueryTable> => ({
  experiment_id: row.experimentId,
  phase: row.phase,
  unit_id: row.unitId,
  query_id: row.queryId,
  recorded_at: row.recordedAt,
  list: JSON.stringify({ teams: row.teams, depth: row.depth, results: row.results }),
  credit: row.credit === null ? null : JSON.stringify(row.credit),
});

export class KyselyInterleavedQueryStore implements InterleavedQueryStore {
  constructor(private readonly db: Kysely<Database>) {}

  async recordMany(rows: readonly InterleavedQueryRecord[]): Promise<void> {
    // A retried call in the same group repeats its key: keep the first, as a stored list is kept.
    const seen = new Set<string>();
    const all: Insertable<InterleavedQueryTable>[] = [];
    for (const r of rows) {
      const key = JSON.stringify([r.experimentId, r.phase, r.unitId, r.queryId]);
      if (seen.has(key)) continue;
      seen.add(key);
      all.push(toRow(r));
    }
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < all.length; i += CHUNK) {
        await trx
          .insertInto('interleaved_queries')
          .values(all.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['experiment_id', 'phase', 'unit_id', 'query_id']).doNothing())
          .execute();
      }
    });
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
