import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { ExposureRecord, ExposureStore } from './exposure.store.js';

function* chunks<T>(rows: T[], size: number): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

export class KyselyExposureStore implements ExposureStore {
  constructor(private readonly db: Kysely<Database>) {}

  async recordExposures(rows: ExposureRecord[]): Promise<void> {
    if (rows.length === 0) return;
    // A group commit can carry the same unit twice; keep its first exposure.
    const unique = new Map<string, ExposureRecord>();
    for (const r of rows) {
      const key = `${r.experimentId}\u0000${r.phase}\u0000${r.unitId}`;
      if (!unique.has(key)) unique.set(key, r);
    }
    const all = [...unique.values()];
    const covariates = all.flatMap((r) =>
      Object.entries(r.covariates ?? {}).map(([metric, value]) => ({
        experiment_id: r.experimentId, phase: r.phase, unit_id: r.unitId, metric, x: value, y: 1, source: 'assign',
      })),
    );
    if (covariates.length === 0) {
      for (const chunk of chunks(all, 500)) await this.insert(this.db, chunk);
      return;
    }
    // Covariates are CUPED's input: written with their exposures, atomically.
    await this.db.transaction().execute(async (trx) => {
      for (const chunk of chunks(all, 500)) await this.insert(trx, chunk);
      for (const chunk of chunks(covariates, 500)) {
        await trx
          .insertInto('experiment_unit_covariates')
          .values(chunk)
          .onConflict((oc) => oc.columns(['experiment_id', 'phase', 'unit_id', 'metric']).doNothing())
          .execute();
      }
    });
  }

  private async insert(db: Kysely<Database>, rows: ExposureRecord[]): Promise<void> {
    // ON CONFLICT DO NOTHING makes the write idempotent under concurrent first assignments.
    await db
      .insertInto('experiment_units')
      .values(
        rows.map((r) => ({
          experiment_id: r.experimentId,
          phase: r.phase,
          unit_id: r.unitId,
          variant_id: r.variantId,
          exposed_at: r.exposedAt,
          covariates: r.covariates ? JSON.stringify(r.covariates) : null,
        })),
      )
      .onConflict((oc) => oc.columns(['experiment_id', 'phase', 'unit_id']).doNothing())
      .execute();
  }

  async getExposure(experimentId: string, phase: number, unitId: string): Promise<ExposureRecord | undefined> {
    const row = await this.db
      .selectFrom('experiment_units')
      .select(['experiment_id', 'phase', 'unit_id', 'variant_id', 'exposed_at', 'covariates'])
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .where('unit_id', '=', unitId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      experimentId: row.experiment_id,
      phase: row.phase,
      unitId: row.unit_id,
      variantId: row.variant_id,
      exposedAt: row.exposed_at,
      covariates: row.covariates ? (JSON.parse(row.covariates) as Record<string, number>) : null,
    };
  }

  async countExposures(experimentId: string, phase: number): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('experiment_units')
      .select(['variant_id', sql<number>`count(*)`.as('units')])
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .groupBy('variant_id')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.variant_id, Number(r.units)]));
  }
}
