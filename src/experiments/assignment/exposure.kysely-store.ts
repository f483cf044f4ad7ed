import { CompiledQuery, sql, type Kysely } from 'kysely';
import { DAY_MS } from '../../common/time.js';
import type { DatabaseCapabilities } from '../../storage/database.js';
import type { Database } from '../../storage/schema.js';
import { exposureDay } from '../model/exposure-day.js';
import type { ExposureRecord, ExposureStore } from '../model/exposure.store.js';

/**
 * SQLite's two statements of every exposure group, each taking its rows as one JSON array
 * (json_each), so the text, and its prepared statement, is the same for every group. Exported so
 * bench/assign/exposure-writes.ts runs these very texts in raw better-sqlite3. `where true` tells
 * SQLite's parser the ON CONFLICT belongs to the INSERT, not to a join.
 */
export const SQLITE_INSERT_EXPOSURES = `insert into experiment_units (experiment_id, phase, unit_id, variant_id, exposed_at, covariates, slice_attributes)
  select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6 from json_each(?) where true
  on conflict (experiment_id, phase, unit_id) do nothing
  returning experiment_id, phase, unit_id, variant_id, exposed_at`;
/** Rows: [experiment_id, phase, variant_id, day, units]. */
export const SQLITE_COUNT_UNITS = `insert into experiment_variant_units (experiment_id, phase, variant_id, day, units)
  select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 from json_each(?) where true
  on conflict (experiment_id, phase, variant_id, day) do update set units = experiment_variant_units.units + excluded.units`;

/**
 * The exposure write is the assign route's one database cost, so it is one fixed SQL text
 * whatever the group's size: the rows travel as arrays (PostgreSQL) or one JSON array (SQLite)
 * instead of a VALUES list, so the statement is compiled and prepared once, not per group size,
 * and Kysely builds no per-row syntax tree.
 */
export class KyselyExposureStore implements ExposureStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: Pick<DatabaseCapabilities, 'supportsDataModifyingCte'>,
  ) {}

  async recordExposures(rows: ExposureRecord[]): Promise<ExposureRecord[]> {
    if (rows.length === 0) return [];
    // A group commit can carry the same unit twice; keep its first exposure.
    const unique = new Map<string, ExposureRecord>();
    for (const r of rows) {
      const key = `${r.experimentId}\u0000${r.phase}\u0000${r.unitId}`;
      if (!unique.has(key)) unique.set(key, r);
    }
    const all = [...unique.values()];
    const covariates: [string, number, string, string, number][] = [];
    for (const r of all) {
      if (r.covariates)
        for (const metric in r.covariates) covariates.push([r.experimentId, r.phase, r.unitId, metric, r.covariates[metric]!]);
    }
    // Exposures, their variant-day unit counts and any covariates are written atomically.
    const inserted = this.capabilities.supportsDataModifyingCte
      ? await this.insertInOneStatement(all, covariates)
      : await this.db.transaction().execute((trx) => this.insertInTransaction(trx, all, covariates));
    const fresh = new Set(inserted.map((r) => `${r.experiment_id}\u0000${r.phase}\u0000${r.unit_id}`));
    return all.filter((r) => fresh.has(`${r.experimentId}\u0000${r.phase}\u0000${r.unitId}`));
  }

  /**
   * PostgreSQL: one statement, one round trip, atomic on its own. ON CONFLICT DO NOTHING makes
   * the insert idempotent under concurrent first assignments (a conflicting insert on another
   * connection waits for it, then skips), and RETURNING gives only the new exposures, which the
   * second insert adds to their variant-day counts.
   */
  private async insertInOneStatement(all: ExposureRecord[], covariates: [string, number, string, string, number][]) {
    const column = <T>(pick: (r: ExposureRecord) => T) => all.map(pick);
    const { rows } = await sql<{ experiment_id: string; phase: number; unit_id: string }>`
      with ins as (
        insert into experiment_units (experiment_id, phase, unit_id, variant_id, exposed_at, covariates, slice_attributes)
        select * from unnest(${column((r) => r.experimentId)}::text[], ${column((r) => r.phase)}::int[],
          ${column((r) => r.unitId)}::text[], ${column((r) => r.variantId)}::text[], ${column((r) => r.exposedAt)}::bigint[],
          ${column((r) => (r.covariates ? JSON.stringify(r.covariates) : null))}::text[],
          ${column((r) => (r.sliceAttributes ? JSON.stringify(r.sliceAttributes) : null))}::text[])
        on conflict (experiment_id, phase, unit_id) do nothing
        returning experiment_id, phase, unit_id, variant_id, exposed_at
      ), counted as (
        insert into experiment_variant_units (experiment_id, phase, variant_id, day, units)
        select experiment_id, phase, variant_id, floor(exposed_at / ${DAY_MS}::float8)::int, count(*) from ins group by 1, 2, 3, 4 -- the day as exposureDay() computes it
        on conflict (experiment_id, phase, variant_id, day) do update set units = experiment_variant_units.units + excluded.units
      ), covariates as (
        insert into experiment_unit_covariates (experiment_id, phase, unit_id, metric, x, y, source)
        select experiment_id, phase, unit_id, metric, x, 1, 'assign'
        from unnest(${covariates.map((c) => c[0])}::text[], ${covariates.map((c) => c[1])}::int[], ${covariates.map((c) => c[2])}::text[],
          ${covariates.map((c) => c[3])}::text[], ${covariates.map((c) => c[4])}::float8[]) as c(experiment_id, phase, unit_id, metric, x)
        on conflict (experiment_id, phase, unit_id, metric) do nothing
      )
      select experiment_id, phase, unit_id from ins`.execute(this.db);
    return rows;
  }

  /**
   * SQLite: statements run in-process, so three in one transaction cost no round trips; each
   * takes its rows as one JSON array (SQLITE_INSERT_EXPOSURES, SQLITE_COUNT_UNITS, the covariates').
   */
  private async insertInTransaction(trx: Kysely<Database>, all: ExposureRecord[], covariates: [string, number, string, string, number][]) {
    const json = JSON.stringify(
      all.map((r) => [
        r.experimentId,
        r.phase,
        r.unitId,
        r.variantId,
        r.exposedAt,
        r.covariates ? JSON.stringify(r.covariates) : null,
        r.sliceAttributes ? JSON.stringify(r.sliceAttributes) : null,
      ]),
    );
    const { rows: inserted } = await trx.executeQuery<{
      experiment_id: string;
      phase: number;
      unit_id: string;
      variant_id: string;
      exposed_at: number;
    }>(CompiledQuery.raw(SQLITE_INSERT_EXPOSURES, [json]));
    await this.countUnits(trx, inserted);
    if (covariates.length > 0) {
      await sql`
        insert into experiment_unit_covariates (experiment_id, phase, unit_id, metric, x, y, source)
        select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, 1, 'assign' from json_each(${JSON.stringify(covariates)}) where true
        on conflict (experiment_id, phase, unit_id, metric) do nothing`.execute(trx);
    }
    return inserted;
  }

  /** Adds the newly inserted exposures (RETURNING gives only those) to their variant-day counts. */
  private async countUnits(
    trx: Kysely<Database>,
    inserted: { experiment_id: string; phase: number; variant_id: string; exposed_at: number }[],
  ): Promise<void> {
    const counts = new Map<string, [string, number, string, number, number]>();
    for (const r of inserted) {
      const day = exposureDay(r.exposed_at);
      const key = `${r.experiment_id}\u0000${r.phase}\u0000${r.variant_id}\u0000${day}`;
      const c = counts.get(key);
      if (c) c[4] += 1;
      else counts.set(key, [r.experiment_id, r.phase, r.variant_id, day, 1]);
    }
    if (counts.size === 0) return;
    await trx.executeQuery(CompiledQuery.raw(SQLITE_COUNT_UNITS, [JSON.stringify([...counts.values()])]));
  }

  async countExposures(experimentId: string, phase: number): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('experiment_variant_units')
      .select(['variant_id', sql<number>`sum(units)`.as('units')])
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .groupBy('variant_id')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.variant_id, Number(r.units)]));
  }
}
