import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { exposureDay } from '../attribution/attribution.js';
import type { ExposureRecord, ExposureStore } from './exposure.store.js';

function* chunks<T>(rows: T[], size: number): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

export class KyselyExposureStore implements ExposureStore {
  constructor(private readonly db: Kysely<Database>) {}

  async recordExposures(rows: ExposureRecord[]): Promise<ExposureRecord[]> {
    if (rows.length === 0) return [];
    // A group commit can carry the same unit twice; keep its first exposure.
    const unique = new Map<string, ExposureRecord>();
    for (const r of rows) {
      const key = `${r.experimentId}\u0000${r.phase}\u0000${r.unitId}`;
      if (!unique.has(key)) unique.set(key, r);
    }
    const all = [...unique.values()];
    const covariates = all.flatMap((r) =>
      Object.entries(r.covariates ?? {}).map(([metric, value]) => ({
        experiment_id: r.experimentId,
        phase: r.phase,
        unit_id: r.unitId,
        metric,
        x: value,
        y: 1,
        source: 'assign',
      })),
    );
    // Exposures, their variant-day unit counts and any covariates are written atomically.
    return this.db.transaction().execute(async (trx) => {
      const inserted: { experiment_id: string; phase: number; unit_id: string; variant_id: string; exposed_at: number }[] = [];
      for (const chunk of chunks(all, 500)) inserted.push(...(await this.insert(trx, chunk)));
      await this.countUnits(trx, inserted);
      for (const chunk of chunks(covariates, 500)) {
        await trx
          .insertInto('experiment_unit_covariates')
          .values(chunk)
          .onConflict((oc) => oc.columns(['experiment_id', 'phase', 'unit_id', 'metric']).doNothing())
          .execute();
      }
      const fresh = new Set(inserted.map((r) => `${r.experiment_id}\u0000${r.phase}\u0000${r.unit_id}`));
      return all.filter((r) => fresh.has(`${r.experimentId}\u0000${r.phase}\u0000${r.unitId}`));
    });
  }

  /** Adds the newly inserted exposures (RETURNING gives only those) to their variant-day counts. */
  private async countUnits(
    db: Kysely<Database>,
    inserted: { experiment_id: string; phase: number; variant_id: string; exposed_at: number }[],
  ): Promise<void> {
    const counts = new Map<string, { experiment_id: string; phase: number; variant_id: string; day: number; units: number }>();
    for (const r of inserted) {
      const day = exposureDay(r.exposed_at);
      const key = `${r.experiment_id}\u0000${r.phase}\u0000${r.variant_id}\u0000${day}`;
      const c = counts.get(key);
      if (c) c.units += 1;
      else counts.set(key, { experiment_id: r.experiment_id, phase: r.phase, variant_id: r.variant_id, day, units: 1 });
    }
    if (counts.size === 0) return;
    await db
      .insertInto('experiment_variant_units')
      .values([...counts.values()])
      .onConflict((oc) =>
        oc
          .columns(['experiment_id', 'phase', 'variant_id', 'day'])
          .doUpdateSet((eb) => ({ units: eb('experiment_variant_units.units', '+', eb.ref('excluded.units')) })),
      )
      .execute();
  }

  private async insert(db: Kysely<Database>, rows: ExposureRecord[]) {
    // ON CONFLICT DO NOTHING makes the write idempotent under concurrent first assignments.
    return db
      .insertInto('experiment_units')
      .values(
        rows.map((r) => ({
          experiment_id: r.experimentId,
          phase: r.phase,
          unit_id: r.unitId,
          variant_id: r.variantId,
          exposed_at: r.exposedAt,
          covariates: r.covariates ? JSON.stringify(r.covariates) : null,
          slice_attributes: r.sliceAttributes ? JSON.stringify(r.sliceAttributes) : null,
        })),
      )
      .onConflict((oc) => oc.columns(['experiment_id', 'phase', 'unit_id']).doNothing())
      .returning(['experiment_id', 'phase', 'unit_id', 'variant_id', 'exposed_at'])
      .execute();
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
