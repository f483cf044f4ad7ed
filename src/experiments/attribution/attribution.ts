import { SLICE_VALUE_MAX, UNSET_SLICE, attributeOf, type FeedbackSliceDimension, type SliceDimension } from '../model/slice-dimensions.js';
import { gridPosition } from '../model/stored-quantile-grid.js';
import { planQuantiles } from './attribution-quantile-sums.js';
import { exposureDay } from '../model/exposure-day.js';
import type {
  AttributableItem,
  QuantileSumDelta,
  QuerySumDelta,
  SliceQuantileSumDelta,
  SliceSumDelta,
} from '../model/attribution-records.js';
import {
  QUANTILE_SOURCES,
  quantileValue,
  type QuantileSource,
  METRIC_CATALOGUE,
  UNIT_STAT_COLUMNS,
  UNIT_STAT_FOLDS,
  emptyStats,
  isClick,
  isConversion,
  linearValue,
  MOMENT_SUM_KEYS,
  type MetricName,
  type MomentSums,
  type UnitStats,
} from '../../vocabulary/index.js';

export {
  FEEDBACK_SLICE_DIMENSIONS as SLICE_DIMENSIONS,
  SLICE_VALUE_MAX,
  UNSET_SLICE,
  type SliceDimension,
} from '../model/slice-dimensions.js';

/** An exposure of the item's session, with the window in which its feedback counts. */
export interface ExposureWindow {
  experimentId: string;
  phase: number;
  unitId: string;
  variantId: string;
  exposedAt: number;
  /** When the phase ended (stop, conclude, new phase); null while it runs. */
  phaseEndedAt: number | null;
  /** The unit's sums before this batch. */
  stats: UnitStats;
  /** The phase's analysis.dimensions (slice sums are kept for these). */
  dimensions?: readonly SliceDimension[];
  /** The unit's slice values, fixed by its first attributed item; null before it has one. */
  sliceValues?: Readonly<Record<string, string>> | null;
  /** The unit's assign attributes for `attr:` dimensions, kept from its first exposure. */
  attributes?: Readonly<Record<string, string>> | null;
  /** Grid positions (sorted) of the unit's items per quantile source so far. */
  quantilePositions?: Readonly<Partial<Record<QuantileSource, readonly number[]>>> | null;
}

/** A unit's grid positions per quantile source after this batch (all of them, written over the old ones). */
export interface UnitQuantilePositions {
  experimentId: string;
  phase: number;
  unitId: string;
  positions: Partial<Record<QuantileSource, number[]>>;
}

/** A unit's slice values, written once (when its first item is attributed). */
export interface UnitSlices {
  experimentId: string;
  phase: number;
  unitId: string;
  values: Record<string, string>;
}

export interface UnitDelta {
  experimentId: string;
  phase: number;
  unitId: string;
  stats: UnitStats;
}

export interface SearchUpsert {
  experimentId: string;
  phase: number;
  unitId: string;
  queryId: string;
  hasClick: number;
}

/** Change of a variant's per-day metric sums (day = the units' exposure day, UTC). */
export interface VariantSumDelta extends MomentSums {
  experimentId: string;
  phase: number;
  variantId: string;
  day: number;
  metric: MetricName;
}

export interface AttributionPlan {
  units: UnitDelta[];
  searches: SearchUpsert[];
  variantSums: VariantSumDelta[];
  unitSlices: UnitSlices[];
  sliceSums: SliceSumDelta[];
  unitQuantiles: UnitQuantilePositions[];
  quantileSums: QuantileSumDelta[];
  sliceQuantileSums: SliceQuantileSumDelta[];
  querySums: QuerySumDelta[];
}

/** A unit's slice values: feedback fields from its first attributed item, `attr:` dimensions from its first exposure. */
function sliceValuesOf(
  item: AttributableItem,
  dimensions: readonly SliceDimension[],
  attributes: Readonly<Record<string, string>> | null | undefined,
): Record<string, string> {
  return Object.fromEntries(
    dimensions.map((d) => {
      const attribute = attributeOf(d);
      if (attribute !== null) return [d, attributes?.[attribute] ?? UNSET_SLICE];
      return [d, (item[d as FeedbackSliceDimension] ?? UNSET_SLICE).slice(0, SLICE_VALUE_MAX)];
    }),
  );
}

/**
 * How a unit's change moves its variant's sums: Σx, Σy and the squares and cross product
 * change by (new − old) for each metric, which keeps variance estimates exact without
 * rescanning units.
 */
export function metricSumChanges(before: UnitStats, delta: UnitStats): ({ metric: MetricName } & MomentSums)[] {
  const after = Object.fromEntries(UNIT_STAT_COLUMNS.map((c) => [c, before[c] + delta[c]])) as UnitStats;
  return METRIC_CATALOGUE.map(({ name: metric, x, y }) => {
    const x0 = linearValue(before, x);
    const y0 = linearValue(before, y);
    const x1 = linearValue(after, x);
    const y1 = linearValue(after, y);
    return { metric, sx: x1 - x0, sy: y1 - y0, sxx: x1 * x1 - x0 * x0, syy: y1 * y1 - y0 * y0, sxy: x1 * y1 - x0 * y0 };
  });
}

export const searchKey = (experimentId: string, phase: number, unitId: string, queryId: string) =>
  `${experimentId}\u0000${phase}\u0000${unitId}\u0000${queryId}`;

/**
 * Turns a batch of feedback items (in arrival order) into additions to per-unit sums. An item
 * counts for an exposure of its session when it arrived at or after the exposure and before
 * the phase ended. `knownSearches` maps search keys already stored to their has_click flag;
 * the first click of a search adds 1/position to the reciprocal-rank sum.
 */
export function planAttribution(
  items: readonly AttributableItem[],
  exposuresBySession: ReadonlyMap<string, readonly ExposureWindow[]>,
  knownSearches: ReadonlyMap<string, number>,
): AttributionPlan {
  const units = new Map<string, UnitDelta>();
  const windows = new Map<string, ExposureWindow>();
  const searches = new Map<string, SearchUpsert>();
  const converted = new Set<string>();
  const newSlices = new Map<string, Record<string, string>>();
  const newPositions = new Map<string, Partial<Record<QuantileSource, number[]>>>();
  const querySums = new Map<string, QuerySumDelta>();
  for (const item of items) {
    for (const x of exposuresBySession.get(item.sessionId) ?? []) {
      if (item.receivedAt < x.exposedAt || (x.phaseEndedAt !== null && item.receivedAt >= x.phaseEndedAt)) continue;
      const unitKey = `${x.experimentId}\u0000${x.phase}\u0000${x.unitId}`;
      let unit = units.get(unitKey);
      if (!unit) units.set(unitKey, (unit = { experimentId: x.experimentId, phase: x.phase, unitId: x.unitId, stats: emptyStats() }));
      windows.set(unitKey, x);
      if (x.dimensions?.length && !x.sliceValues && !newSlices.has(unitKey))
        newSlices.set(unitKey, sliceValuesOf(item, x.dimensions, x.attributes));
      const s = unit.stats;

      const key = searchKey(x.experimentId, x.phase, x.unitId, item.queryId);
      let search = searches.get(key);
      let opensSearch = false;
      if (!search) {
        const known = knownSearches.get(key);
        opensSearch = known === undefined;
        search = { experimentId: x.experimentId, phase: x.phase, unitId: x.unitId, queryId: item.queryId, hasClick: known ?? 0 };
        searches.set(key, search);
      }
      const firstClickOfSearch = isClick(item.userAction) && search.hasClick === 0;
      if (firstClickOfSearch) search.hasClick = 1;
      const firstConversion = isConversion(item.userAction) && x.stats.conversions === 0 && !converted.has(unitKey);
      if (firstConversion) converted.add(unitKey);
      if (item.queryHash != null && (opensSearch || firstClickOfSearch))
        addQuerySum(querySums, x, item.queryHash, item.receivedAt, opensSearch, firstClickOfSearch);
      const context = { item, opensSearch, firstClickOfSearch, firstConversion };
      for (const column of UNIT_STAT_COLUMNS) s[column] += UNIT_STAT_FOLDS[column](context);
      for (const { name: source } of QUANTILE_SOURCES) {
        const v = quantileValue(item, source);
        if (v === null || !Number.isFinite(v)) continue;
        let added = newPositions.get(unitKey);
        if (!added) newPositions.set(unitKey, (added = {}));
        (added[source] ??= []).push(gridPosition(v));
      }
    }
  }
  // Only new searches and searches whose first click arrived need writing.
  const changed = [...searches.entries()].filter(([key, sr]) => knownSearches.get(key) !== sr.hasClick).map(([, sr]) => sr);
  const variantSums = new Map<string, VariantSumDelta>();
  for (const [unitKey, unit] of units) {
    const x = windows.get(unitKey)!;
    const day = exposureDay(x.exposedAt);
    for (const change of metricSumChanges(x.stats, unit.stats)) {
      const key = `${x.experimentId}\u0000${x.phase}\u0000${x.variantId}\u0000${day}\u0000${change.metric}`;
      const acc = variantSums.get(key);
      if (!acc) variantSums.set(key, { experimentId: x.experimentId, phase: x.phase, variantId: x.variantId, day, ...change });
      else for (const k of MOMENT_SUM_KEYS) acc[k] += change[k];
    }
  }
  const sliceSums = new Map<string, SliceSumDelta>();
  for (const [unitKey, unit] of units) {
    const x = windows.get(unitKey)!;
    const fresh = newSlices.get(unitKey);
    const values = x.sliceValues ?? fresh;
    if (!values) continue;
    // A unit entering its slice brings its whole value (from empty stats), so a unit attributed before its
    // experiment declared dimensions still lands in the slice with all of its feedback.
    const from = fresh ? emptyStats() : x.stats;
    const delta = fresh ? (Object.fromEntries(UNIT_STAT_COLUMNS.map((c) => [c, x.stats[c] + unit.stats[c]])) as UnitStats) : unit.stats;
    for (const change of metricSumChanges(from, delta)) {
      for (const [dimension, value] of Object.entries(values)) {
        const key = `${x.experimentId}\u0000${x.phase}\u0000${dimension}\u0000${value}\u0000${x.variantId}\u0000${change.metric}`;
        const acc = sliceSums.get(key);
        const units = fresh ? 1 : 0;
        if (!acc)
          sliceSums.set(key, { experimentId: x.experimentId, phase: x.phase, dimension, value, variantId: x.variantId, units, ...change });
        else {
          acc.units += units;
          for (const k of MOMENT_SUM_KEYS) acc[k] += change[k];
        }
      }
    }
  }
  const quantiles = planQuantiles(units.keys(), windows, newPositions, newSlices);
  const unitSlices = [...newSlices].map(([key, values]) => {
    const x = windows.get(key)!;
    return { experimentId: x.experimentId, phase: x.phase, unitId: x.unitId, values };
  });
  return {
    units: [...units.values()],
    searches: changed,
    variantSums: [...variantSums.values()],
    unitSlices,
    sliceSums: [...sliceSums.values()],
    ...quantiles,
    querySums: [...querySums.values()],
  };
}

/**
 * Adds one search opening and/or first click to its variant's row for the query. lastSeen is the received
 * time, not the client's timestamp: attribution windows are on received time, and it is the server's clock
 * (a backdated import or a skewed device cannot move a row to the top of "most recently seen").
 */
function addQuerySum(
  sums: Map<string, QuerySumDelta>,
  x: ExposureWindow,
  queryHash: string,
  receivedAt: number,
  opensSearch: boolean,
  firstClickOfSearch: boolean,
): void {
  const key = `${x.experimentId}\u0000${x.phase}\u0000${x.variantId}\u0000${queryHash}`;
  let acc = sums.get(key);
  if (!acc) {
    acc = { experimentId: x.experimentId, phase: x.phase, variantId: x.variantId, queryHash, searches: 0, clickedSearches: 0, lastSeen: 0 };
    sums.set(key, acc);
  }
  if (opensSearch) acc.searches += 1;
  if (firstClickOfSearch) acc.clickedSearches += 1;
  acc.lastSeen = Math.max(acc.lastSeen, receivedAt);
}
