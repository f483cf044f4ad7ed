import type { Kysely, Transaction } from 'kysely';
import type { DatabaseCapabilities } from '../../storage/database.js';
import type { Database } from '../../storage/schema.js';
import { MOMENT_SUM_KEYS, UNIT_STAT_COLUMNS, momentSumsOf, type UnitStats } from '../../vocabulary/index.js';
import { addExcluded } from '../../storage/additive-upsert.js';
import { ATTRIBUTION_LOCK, tryTransactionLock } from '../../storage/advisory-locks.js';
import { searchKey, type ExposureWindow } from './attribution.js';
import type { AttributableItem } from '../model/attribution-records.js';
import type { AttributionStore, Planner } from './attribution.store.js';
import { creditInterleavedClicks } from './interleaving-credit.kysely-store.js';
import { phaseDimensions, unitSliceValues, writeSlices } from './slices.kysely-store.js';
import { writeQuantileSums } from './quantile-sums.kysely-store.js';
import { writeQuerySums } from './query-sums.kysely-store.js';
import { insertBatches, keyBatches } from '../../storage/batch-write.js';

export class KyselyAttributionStore implements AttributionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: Pick<DatabaseCapabilities, 'supportsAdvisoryLocks'>,
  ) {}

  async attributeNext(limit: number, plan: Planner): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      if (this.capabilities.supportsAdvisoryLocks) {
        if (!(await tryTransactionLock(trx, ATTRIBUTION_LOCK))) return null;
      }
      const { items, resultIds } = await this.claim(trx, limit);
      if (items.length === 0) return 0;
      await creditInterleavedClicks(trx, items, resultIds);
      const sessions = [...new Set(items.map((i) => i.sessionId))];
      const exposures = await this.exposures(trx, sessions, Math.min(...items.map((i) => i.receivedAt)));
      const known = await this.knownSearches(trx, items, exposures);
      const { units, searches, variantSums, unitSlices, sliceSums, unitQuantiles, quantileSums, sliceQuantileSums, querySums } = plan(
        items,
        exposures,
        known,
      );

      const positions = new Map(unitQuantiles.map((q) => [`${q.experimentId}\u0000${q.phase}\u0000${q.unitId}`, q.positions]));
      for (const u of units) {
        const s = u.stats;
        const moved = positions.get(`${u.experimentId}\u0000${u.phase}\u0000${u.unitId}`);
        await trx
          .updateTable('experiment_units')
          // Every unit-stat column of the catalogue: column = column + this batch's addition; the unit's
          // quantile grid positions (all of them) when it got quantile items.
          .set((eb) => ({
            ...Object.fromEntries(UNIT_STAT_COLUMNS.map((c) => [c, eb(c, '+', s[c])])),
            ...(moved ? { quantile_positions: JSON.stringify(moved) } : {}),
          }))
          .where('experiment_id', '=', u.experimentId)
          .where('phase', '=', u.phase)
          .where('unit_id', '=', u.unitId)
          .execute();
      }
      const searchRows = searches.map((s) => ({
        experiment_id: s.experimentId,
        phase: s.phase,
        unit_id: s.unitId,
        query_id: s.queryId,
        has_click: s.hasClick,
      }));
      await insertBatches(searchRows, (rows) =>
        trx
          .insertInto('experiment_searches')
          .values(rows)
          .onConflict((oc) =>
            oc
              .columns(['experiment_id', 'phase', 'unit_id', 'query_id'])
              .doUpdateSet((eb) => ({ has_click: eb.ref('excluded.has_click') })),
          )
          .execute(),
      );
      const sumRows = variantSums.map((v) => ({
        experiment_id: v.experimentId,
        phase: v.phase,
        variant_id: v.variantId,
        day: v.day,
        metric: v.metric,
        ...momentSumsOf(v),
      }));
      await insertBatches(sumRows, (rows) =>
        trx
          .insertInto('experiment_variant_sums')
          .values(rows)
          .onConflict((oc) =>
            oc
              .columns(['experiment_id', 'phase', 'variant_id', 'day', 'metric'])
              .doUpdateSet(addExcluded('experiment_variant_sums', MOMENT_SUM_KEYS)),
          )
          .execute(),
      );
      await writeSlices(trx, unitSlices, sliceSums);
      await writeQuantileSums(trx, quantileSums, sliceQuantileSums);
      await writeQuerySums(trx, querySums);
      // `attributed = 1` is a parameter too.
      await keyBatches(
        items.map((i) => i.id),
        (ids) => trx.updateTable('feedback_items').set({ attributed: 1 }).where('id', 'in', ids).execute(),
        1,
      );
      return items.length;
    });
  }

  private async claim(
    trx: Transaction<Database>,
    limit: number,
  ): Promise<{ items: AttributableItem[]; resultIds: Map<string, string | null> }> {
    const rows = await trx
      .selectFrom('feedback_items')
      .select([
        'id',
        'session_id',
        'query_id',
        'user_action',
        'rating',
        'received_at',
        'position',
        'dwell_time',
        'time_to_click',
        'scroll_depth',
        'result_id',
        'query_hash',
        'device_type',
        'search_type',
        'language',
        'category',
      ])
      .where('attributed', '=', 0)
      .orderBy('id')
      .limit(limit)
      .execute();
    const resultIds = new Map(rows.map((r) => [r.id, r.result_id]));
    const items = rows.map((r) => ({
      id: r.id,
      sessionId: r.session_id,
      queryId: r.query_id,
      userAction: r.user_action,
      rating: r.rating,
      receivedAt: r.received_at,
      position: r.position,
      dwellTime: r.dwell_time,
      timeToClick: r.time_to_click,
      scrollDepth: r.scroll_depth,
      queryHash: r.query_hash,
      deviceType: r.device_type,
      searchType: r.search_type,
      language: r.language,
      category: r.category,
    }));
    return { items, resultIds };
  }

  /**
   * Exposures of the batch's sessions, looked up by primary key within the phases that can
   * still receive feedback: open ones, and ones that ended after the batch's oldest item.
   */
  private async exposures(trx: Transaction<Database>, sessions: string[], oldestItem: number): Promise<Map<string, ExposureWindow[]>> {
    const bySession = new Map<string, ExposureWindow[]>();
    const phases = await trx
      .selectFrom('experiment_phases')
      .select(['experiment_id', 'phase', 'ended_at', 'configuration'])
      .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', oldestItem)]))
      .execute();
    for (const p of phases) {
      const dimensions = phaseDimensions(p.configuration);
      // A slice of sessions at a time: unitSliceValues reads the same unit ids.
      await keyBatches(
        sessions,
        async (unitIds) => {
          const rows = await trx
            .selectFrom('experiment_units')
            .select(['unit_id', 'variant_id', 'exposed_at', 'slice_attributes', 'quantile_positions', ...UNIT_STAT_COLUMNS])
            .where('experiment_id', '=', p.experiment_id)
            .where('phase', '=', p.phase)
            .where('unit_id', 'in', unitIds)
            .execute();
          const slices = dimensions.length
            ? await unitSliceValues(
                trx,
                p.experiment_id,
                p.phase,
                rows.map((r) => r.unit_id),
              )
            : new Map();
          for (const r of rows) {
            const list = bySession.get(r.unit_id) ?? [];
            const stats = Object.fromEntries(UNIT_STAT_COLUMNS.map((c) => [c, Number(r[c])])) as unknown as UnitStats;
            list.push({
              experimentId: p.experiment_id,
              phase: p.phase,
              unitId: r.unit_id,
              variantId: r.variant_id,
              exposedAt: r.exposed_at,
              phaseEndedAt: p.ended_at,
              stats,
              dimensions,
              sliceValues: slices.get(r.unit_id) ?? null,
              attributes: r.slice_attributes ? (JSON.parse(r.slice_attributes) as Record<string, string>) : null,
              quantilePositions: r.quantile_positions ? (JSON.parse(r.quantile_positions) as Record<string, number[]>) : null,
            });
            bySession.set(r.unit_id, list);
          }
        },
        2,
      );
    }
    return bySession;
  }

  private async knownSearches(
    trx: Transaction<Database>,
    items: AttributableItem[],
    exposures: Map<string, ExposureWindow[]>,
  ): Promise<Map<string, number>> {
    const known = new Map<string, number>();
    const units = [...exposures.values()].flat();
    if (units.length === 0) return known;
    const queryIds = [...new Set(items.filter((i) => exposures.has(i.sessionId)).map((i) => i.queryId))];
    const rows = await keyBatches(
      [...exposures.keys()],
      (unitIds) =>
        trx
          .selectFrom('experiment_searches')
          .select(['experiment_id', 'phase', 'unit_id', 'query_id', 'has_click'])
          .where('unit_id', 'in', unitIds)
          .where('query_id', 'in', queryIds)
          .execute(),
      queryIds.length,
    );
    for (const r of rows) known.set(searchKey(r.experiment_id, r.phase, r.unit_id, r.query_id), r.has_click);
    return known;
  }
}
