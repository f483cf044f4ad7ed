import { sql, type Transaction } from 'kysely';
import { addGridDelta, emptyGridDelta, type QuantileGridDelta } from '../../stats/index.js';
import type { Database } from '../../storage/schema.js';
import { encodeGridArray, gridFromRow, QUANTILE_GRID } from '../model/stored-quantile-grid.js';
import type { QuantileSumDelta, SliceQuantileSumDelta } from '../model/attribution-records.js';
import { insertBatches } from '../../storage/batch-write.js';

function gridColumns(g: QuantileGridDelta) {
  return {
    units: g.units,
    items: g.items,
    items_squared: g.itemsSquared,
    below: encodeGridArray(g.below),
    below_squared: encodeGridArray(g.belowSquared),
    below_times_items: encodeGridArray(g.belowTimesItems),
  };
}

const GRID_COLUMNS = ['units', 'items', 'items_squared', 'below', 'below_squared', 'below_times_items'] as const;
const replaceWithExcluded = Object.fromEntries(GRID_COLUMNS.map((c) => [c, sql.ref(`excluded.${c}`)]));
const distinct = <T>(values: T[]): T[] => [...new Set(values)];

/**
 * In the attribution transaction (under its lock, so no other writer): the variant-day and slice grid sums
 * the batch changes, read in one query per table, added to, and written back in chunked upserts (JSON arrays
 * cannot be added in SQL portably). Each unit's new grid positions are written with its stats (the store's
 * per-unit update), not here.
 */
export async function writeQuantileSums(
  trx: Transaction<Database>,
  sums: readonly QuantileSumDelta[],
  sliceSums: readonly SliceQuantileSumDelta[],
): Promise<void> {
  const k = QUANTILE_GRID.length;
  if (sums.length > 0) {
    const old = await trx
      .selectFrom('experiment_quantile_sums')
      .selectAll()
      .where('experiment_id', 'in', distinct(sums.map((d) => d.experimentId)))
      .where('phase', 'in', distinct(sums.map((d) => d.phase)))
      .where('variant_id', 'in', distinct(sums.map((d) => d.variantId)))
      .where('day', 'in', distinct(sums.map((d) => d.day)))
      .where('source', 'in', distinct(sums.map((d) => d.source)))
      .execute();
    const key = (e: string, p: number, v: string, d: number, s: string) => `${e}\u0000${p}\u0000${v}\u0000${d}\u0000${s}`;
    const stored = new Map(old.map((r) => [key(r.experiment_id, r.phase, r.variant_id, r.day, r.source), r]));
    const rows = sums.map((d) => {
      const before = stored.get(key(d.experimentId, d.phase, d.variantId, d.day, d.source));
      const total = addGridDelta(before ? gridFromRow(before) : emptyGridDelta(k), d.delta);
      return {
        experiment_id: d.experimentId,
        phase: d.phase,
        variant_id: d.variantId,
        day: d.day,
        source: d.source,
        ...gridColumns(total),
      };
    });
    await insertBatches(rows, (slice) =>
      trx
        .insertInto('experiment_quantile_sums')
        .values(slice)
        .onConflict((oc) => oc.columns(['experiment_id', 'phase', 'variant_id', 'day', 'source']).doUpdateSet(replaceWithExcluded))
        .execute(),
    );
  }
  if (sliceSums.length > 0) {
    const old = await trx
      .selectFrom('experiment_slice_quantile_sums')
      .selectAll()
      .where('experiment_id', 'in', distinct(sliceSums.map((d) => d.experimentId)))
      .where('phase', 'in', distinct(sliceSums.map((d) => d.phase)))
      .where('dimension', 'in', distinct(sliceSums.map((d) => d.dimension)))
      .where('value', 'in', distinct(sliceSums.map((d) => d.value)))
      .where('variant_id', 'in', distinct(sliceSums.map((d) => d.variantId)))
      .where('source', 'in', distinct(sliceSums.map((d) => d.source)))
      .execute();
    const key = (e: string, p: number, dim: string, val: string, v: string, s: string) =>
      `${e}\u0000${p}\u0000${dim}\u0000${val}\u0000${v}\u0000${s}`;
    const stored = new Map(old.map((r) => [key(r.experiment_id, r.phase, r.dimension, r.value, r.variant_id, r.source), r]));
    const rows = sliceSums.map((d) => {
      const before = stored.get(key(d.experimentId, d.phase, d.dimension, d.value, d.variantId, d.source));
      const total = addGridDelta(before ? gridFromRow(before) : emptyGridDelta(k), d.delta);
      return {
        experiment_id: d.experimentId,
        phase: d.phase,
        dimension: d.dimension,
        value: d.value,
        variant_id: d.variantId,
        source: d.source,
        ...gridColumns(total),
      };
    });
    await insertBatches(rows, (slice) =>
      trx
        .insertInto('experiment_slice_quantile_sums')
        .values(slice)
        .onConflict((oc) =>
          oc.columns(['experiment_id', 'phase', 'dimension', 'value', 'variant_id', 'source']).doUpdateSet(replaceWithExcluded),
        )
        .execute(),
    );
  }
}
