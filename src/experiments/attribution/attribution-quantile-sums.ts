import { addUnitChange, emptyGridDelta, type QuantileGridDelta } from '../../stats/index.js';
import { QUANTILE_SOURCES, type QuantileSource } from '../../vocabulary/index.js';
import { QUANTILE_GRID } from '../model/stored-quantile-grid.js';
import { exposureDay } from '../model/exposure-day.js';
import type { QuantileSumDelta, SliceQuantileSumDelta } from '../model/attribution-records.js';
import type { AttributionPlan, ExposureWindow, UnitQuantilePositions } from './attribution.js';

const mergeSorted = (a: readonly number[], b: readonly number[]): number[] => [...a, ...b].sort((x, y) => x - y);

/**
 * The quantile metrics' share of a plan: each unit's new grid positions, and how its variant-day's and its
 * slices' grid sums change (src/stats quantile-grid.ts: the unit's contribution after minus before). A unit
 * entering its slices brings its whole contribution, like the ratio sums.
 */
export function planQuantiles(
  unitKeys: Iterable<string>,
  windows: ReadonlyMap<string, ExposureWindow>,
  newPositions: ReadonlyMap<string, Partial<Record<QuantileSource, number[]>>>,
  newSlices: ReadonlyMap<string, Record<string, string>>,
): Pick<AttributionPlan, 'unitQuantiles' | 'quantileSums' | 'sliceQuantileSums'> {
  const k = QUANTILE_GRID.length;
  const unitQuantiles: UnitQuantilePositions[] = [];
  const sums = new Map<string, QuantileSumDelta>();
  const sliceSums = new Map<string, SliceQuantileSumDelta>();
  const target = <T extends { delta: QuantileGridDelta }>(
    map: Map<string, T>,
    key: string,
    make: () => Omit<T, 'delta'>,
  ): QuantileGridDelta => {
    let acc = map.get(key);
    if (!acc) map.set(key, (acc = { ...make(), delta: emptyGridDelta(k) } as T));
    return acc.delta;
  };
  for (const unitKey of unitKeys) {
    const x = windows.get(unitKey)!;
    const added = newPositions.get(unitKey);
    const fresh = newSlices.get(unitKey);
    const sliceValues = x.sliceValues ?? fresh;
    if (!added && !(fresh && x.quantilePositions)) continue;
    const positions: Partial<Record<QuantileSource, number[]>> = {};
    for (const { name: source } of QUANTILE_SOURCES) {
      const before = x.quantilePositions?.[source] ?? [];
      const after = added?.[source] ? mergeSorted(before, added[source]) : [...before];
      if (after.length > 0) positions[source] = after;
      // Targets that move by after − before: the variant-day, and the slices the unit was already in.
      const changed: QuantileGridDelta[] = [];
      if (added?.[source]) {
        const day = exposureDay(x.exposedAt);
        const key = `${x.experimentId}\u0000${x.phase}\u0000${x.variantId}\u0000${day}\u0000${source}`;
        changed.push(target(sums, key, () => ({ experimentId: x.experimentId, phase: x.phase, variantId: x.variantId, day, source })));
      }
      // Slices a unit enters now get its whole contribution (from nothing); slices it was in, the change.
      const entering: QuantileGridDelta[] = [];
      if (sliceValues && after.length > 0 && (fresh || added?.[source])) {
        for (const [dimension, value] of Object.entries(sliceValues)) {
          const key = `${x.experimentId}\u0000${x.phase}\u0000${dimension}\u0000${value}\u0000${x.variantId}\u0000${source}`;
          const base = () => ({ experimentId: x.experimentId, phase: x.phase, dimension, value, variantId: x.variantId, source });
          (fresh ? entering : changed).push(target(sliceSums, key, base));
        }
      }
      addUnitChange(changed, before, after);
      addUnitChange(entering, [], after);
    }
    if (added) unitQuantiles.push({ experimentId: x.experimentId, phase: x.phase, unitId: x.unitId, positions });
  }
  return { unitQuantiles, quantileSums: [...sums.values()], sliceQuantileSums: [...sliceSums.values()] };
}
