import type { Transaction } from 'kysely';
import { addGridDelta, emptyGridDelta, type QuantileGridDelta } from '../../stats/index.js';
import type { Database, QuantileGridColumns } from '../../storage/schema.js';
import { decodeGridArray, encodeGridArray, QUANTILE_GRID } from '../quantile-grid.js';
import type { QuantileSumDelta, SliceQuantileSumDelta, UnitQuantilePositions } from './attribution.js';

/** A stored row's grid sums (arrays decoded to the grid's length). */
export function gridFromRow(
  r: Pick<QuantileGridColumns, 'units' | 'items' | 'items_squared' | 'below' | 'below_squared' | 'below_times_items'>,
): QuantileGridDelta {
  return {
    units: Number(r.units),
    items: Number(r.items),
    itemsSquared: Number(r.items_squared),
    below: decodeGridArray(r.below),
    belowSquared: decodeGridArray(r.below_squared),
    belowTimesItems: decodeGridArray(r.below_times_items),
  };
}

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

/**
 * In the attribution transaction (under its lock, so no other writer): each unit's new grid positions, and
 * the variant-day and slice grid sums, read, added to and written back (JSON arrays cannot be added in SQL
 * portably; a batch touches a few rows per variant, day and source).
 */
export async function writeQuantiles(
  trx: Transaction<Database>,
  units: readonly UnitQuantilePositions[],
  sums: readonly QuantileSumDelta[],
  sliceSums: readonly SliceQuantileSumDelta[],
): Promise<void> {
  for (const u of units) {
    await trx
      .updateTable('experiment_units')
      .set({ quantile_positions: JSON.stringify(u.positions) })
      .where('experiment_id', '=', u.experimentId)
      .where('phase', '=', u.phase)
      .where('unit_id', '=', u.unitId)
      .execute();
  }
  for (const d of sums) {
    const key = { experiment_id: d.experimentId, phase: d.phase, variant_id: d.variantId, day: d.day, source: d.source };
    const old = await trx
      .selectFrom('experiment_quantile_sums')
      .selectAll()
      .where('experiment_id', '=', key.experiment_id)
      .where('phase', '=', key.phase)
      .where('variant_id', '=', key.variant_id)
      .where('day', '=', key.day)
      .where('source', '=', key.source)
      .executeTakeFirst();
    const total = addGridDelta(old ? gridFromRow(old) : emptyGridDelta(QUANTILE_GRID.length), d.delta);
    if (!old)
      await trx
        .insertInto('experiment_quantile_sums')
        .values({ ...key, ...gridColumns(total) })
        .execute();
    else {
      await trx
        .updateTable('experiment_quantile_sums')
        .set(gridColumns(total))
        .where('experiment_id', '=', key.experiment_id)
        .where('phase', '=', key.phase)
        .where('variant_id', '=', key.variant_id)
        .where('day', '=', key.day)
        .where('source', '=', key.source)
        .execute();
    }
  }
  for (const d of sliceSums) {
    const key = {
      experiment_id: d.experimentId,
      phase: d.phase,
      dimension: d.dimension,
      value: d.value,
      variant_id: d.variantId,
      source: d.source,
    };
    const old = await trx
      .selectFrom('experiment_slice_quantile_sums')
      .selectAll()
      .where('experiment_id', '=', key.experiment_id)
      .where('phase', '=', key.phase)
      .where('dimension', '=', key.dimension)
      .where('value', '=', key.value)
      .where('variant_id', '=', key.variant_id)
      .where('source', '=', key.source)
      .executeTakeFirst();
    const total = addGridDelta(old ? gridFromRow(old) : emptyGridDelta(QUANTILE_GRID.length), d.delta);
    if (!old)
      await trx
        .insertInto('experiment_slice_quantile_sums')
        .values({ ...key, ...gridColumns(total) })
        .execute();
    else {
      await trx
        .updateTable('experiment_slice_quantile_sums')
        .set(gridColumns(total))
        .where('experiment_id', '=', key.experiment_id)
        .where('phase', '=', key.phase)
        .where('dimension', '=', key.dimension)
        .where('value', '=', key.value)
        .where('variant_id', '=', key.variant_id)
        .where('source', '=', key.source)
        .execute();
    }
  }
}
