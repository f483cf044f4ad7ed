import { sql, type Kysely } from 'kysely';
import { SESSION_METRIC_SQL, sessionMetricSelections } from '../../storage/metric-sql.js';
import type { Database } from '../../storage/schema.js';

import type { NewExposure, PreExposureCovariateStore } from './pre-exposure-covariates.store.js';
import { insertBatches } from '../../storage/batch-write.js';

/**
 * CUPED covariates from a unit's own feedback before its exposure (teams that use a persistent
 * user id as sessionId). Written for every newly exposed unit that has such feedback, whatever
 * happens after exposure, so the covariate cannot depend on the treatment. Values sent with
 * assign win (ON CONFLICT DO NOTHING).
 */
export class KyselyPreExposureCovariates implements PreExposureCovariateStore {
  constructor(private readonly db: Kysely<Database>) {}

  async compute(units: readonly NewExposure[]): Promise<number> {
    if (units.length === 0) return 0;
    const exposedAt = new Map(units.map((u) => [u.unitId, u.exposedAt]));
    const latest = Math.max(...units.map((u) => u.exposedAt));
    const rows = (await this.db
      .selectFrom('feedback_items as f')
      .select([
        sql<string>`f.session_id`.as('session_id'),
        sql<number>`min(f.received_at)`.as('first'),
        sql<number>`max(f.received_at)`.as('last'),
        ...sessionMetricSelections(),
      ])
      .where('f.session_id', 'in', [...exposedAt.keys()])
      .where('f.received_at', '<', latest)
      .groupBy('f.session_id')
      .execute()) as Record<string, unknown>[];
    // A session's feedback must lie wholly before its exposure; a unit whose feedback straddles
    // it is recomputed only over the earlier part by a second, per-unit query (rare).
    const values = [];
    for (const row of rows) {
      const sessionId = String(row.session_id);
      for (const u of units.filter((x) => x.unitId === sessionId)) {
        let r: Record<string, unknown> | undefined = row;
        if (Number(row.last) >= u.exposedAt) r = await this.before(sessionId, u.exposedAt);
        if (!r) continue;
        for (const [metric] of SESSION_METRIC_SQL) {
          values.push({
            experiment_id: u.experimentId,
            phase: u.phase,
            unit_id: u.unitId,
            metric,
            x: Number(r[`${metric}_x`] ?? 0),
            y: Number(r[`${metric}_y`] ?? 0),
            source: 'pre_exposure',
          });
        }
      }
    }
    await insertBatches(values, (rows) =>
      this.db
        .insertInto('experiment_unit_covariates')
        .values(rows)
        .onConflict((oc) => oc.columns(['experiment_id', 'phase', 'unit_id', 'metric']).doNothing())
        .execute(),
    );
    return values.length;
  }

  private async before(sessionId: string, exposedAt: number): Promise<Record<string, unknown> | undefined> {
    const row = (await this.db
      .selectFrom('feedback_items as f')
      .select([sql<number>`count(*)`.as('n'), ...sessionMetricSelections()])
      .where('f.session_id', '=', sessionId)
      .where('f.received_at', '<', exposedAt)
      .executeTakeFirst()) as Record<string, unknown> | undefined;
    return row && Number(row.n) > 0 ? row : undefined;
  }
}
