import type { Transaction } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { UnitSlices } from './attribution.js';
import type { SliceSumDelta } from '../model/attribution-records.js';
import { isSliceDimension, type SliceDimension } from '../model/slice-dimensions.js';
import { addExcluded } from '../../storage/additive-upsert.js';
import { insertBatches } from '../../storage/batch-write.js';
import { MOMENT_SUM_KEYS, momentSumsOf } from '../../vocabulary/index.js';

/** The dimensions a phase keeps slice sums for: its configuration's analysis.dimensions (default deviceType, searchType; `attr:` ones too). */
export function phaseDimensions(configuration: string): SliceDimension[] {
  const declared = (JSON.parse(configuration) as { analysis?: { dimensions?: unknown } }).analysis?.dimensions;
  const list = Array.isArray(declared) ? declared : ['deviceType', 'searchType'];
  return list.filter(isSliceDimension);
}

/** The stored slice values of these units (only units whose first item was attributed have any). */
export async function unitSliceValues(
  trx: Transaction<Database>,
  experimentId: string,
  phase: number,
  unitIds: string[],
): Promise<Map<string, Record<string, string>>> {
  const out = new Map<string, Record<string, string>>();
  if (unitIds.length === 0) return out;
  const rows = await trx
    .selectFrom('experiment_unit_slices')
    .select(['unit_id', 'slice_values'])
    .where('experiment_id', '=', experimentId)
    .where('phase', '=', phase)
    .where('unit_id', 'in', unitIds)
    .execute();
  for (const r of rows) out.set(r.unit_id, JSON.parse(r.slice_values) as Record<string, string>);
  return out;
}

/** In the attribution transaction: each unit's slice values once, and the slice sums' additions. */
export async function writeSlices(trx: Transaction<Database>, unitSlices: UnitSlices[], sliceSums: SliceSumDelta[]): Promise<void> {
  const unitRows = unitSlices.map((u) => ({
    experiment_id: u.experimentId,
    phase: u.phase,
    unit_id: u.unitId,
    slice_values: JSON.stringify(u.values),
  }));
  await insertBatches(unitRows, (rows) => trx.insertInto('experiment_unit_slices').values(rows).execute());
  const sumRows = sliceSums.map((v) => ({
    experiment_id: v.experimentId,
    phase: v.phase,
    dimension: v.dimension,
    value: v.value,
    variant_id: v.variantId,
    metric: v.metric,
    units: v.units,
    ...momentSumsOf(v),
  }));
  await insertBatches(sumRows, (rows) =>
    trx
      .insertInto('experiment_slice_sums')
      .values(rows)
      .onConflict((oc) =>
        oc
          .columns(['experiment_id', 'phase', 'dimension', 'value', 'variant_id', 'metric'])
          .doUpdateSet(addExcluded('experiment_slice_sums', ['units', ...MOMENT_SUM_KEYS])),
      )
      .execute(),
  );
}
