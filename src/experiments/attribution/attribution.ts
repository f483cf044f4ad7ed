import type { UnitStats } from '../storage/schema.js';
import { METRIC_NAMES, type MetricName } from './metric-catalogue.js';
import { METRIC_COLUMNS, type LinearTerm } from './metric-columns.js';

/** The fields of a feedback item that metrics read. */
export interface AttributableItem {
  id: string;
  sessionId: string;
  queryId: string;
  userAction: string | null;
  rating: number | null;
  receivedAt: number;
  position: number | null;
  dwellTime: number | null;
  timeToClick: number | null;
  scrollDepth: number | null;
}

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
export interface VariantSumDelta {
  experimentId: string;
  phase: number;
  variantId: string;
  day: number;
  metric: MetricName;
  sx: number;
  sy: number;
  sxx: number;
  syy: number;
  sxy: number;
}

export interface AttributionPlan {
  units: UnitDelta[];
  searches: SearchUpsert[];
  variantSums: VariantSumDelta[];
}

export const DAY_MS = 86_400_000;
export const exposureDay = (exposedAt: number) => Math.floor(exposedAt / DAY_MS);

const linear = (stats: UnitStats, terms: readonly LinearTerm[]) =>
  terms.reduce((acc, [column, k]) => acc + k * (column === 'one' ? 1 : stats[column]), 0);

/**
 * How a unit's change moves its variant's sums: Σx, Σy and the squares and cross product
 * change by (new − old) for each metric, which keeps variance estimates exact without
 * rescanning units.
 */
export function metricSumChanges(
  before: UnitStats,
  delta: UnitStats,
): { metric: MetricName; sx: number; sy: number; sxx: number; syy: number; sxy: number }[] {
  const after = Object.fromEntries(Object.entries(before).map(([k, v]) => [k, v + delta[k as keyof UnitStats]])) as unknown as UnitStats;
  return METRIC_NAMES.map((metric) => {
    const { x, y } = METRIC_COLUMNS[metric];
    const x0 = linear(before, x);
    const y0 = linear(before, y);
    const x1 = linear(after, x);
    const y1 = linear(after, y);
    return { metric, sx: x1 - x0, sy: y1 - y0, sxx: x1 * x1 - x0 * x0, syy: y1 * y1 - y0 * y0, sxy: x1 * y1 - x0 * y0 };
  });
}

export const SATISFIED_DWELL_MS = 30_000;
const CONVERSION_ACTIONS = new Set(['purchase', 'conversion']);

export const searchKey = (experimentId: string, phase: number, unitId: string, queryId: string) =>
  `${experimentId}\u0000${phase}\u0000${unitId}\u0000${queryId}`;

export const emptyStats = (): UnitStats => ({
  impressions: 0,
  clicks: 0,
  searches: 0,
  searches_with_click: 0,
  rr_sum: 0,
  rated_items: 0,
  rating_sum: 0,
  dwell_sum: 0,
  dwell_count: 0,
  satisfied_clicks: 0,
  ttc_sum: 0,
  ttc_count: 0,
  scroll_sum: 0,
  scroll_count: 0,
  conversions: 0,
});

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
  for (const item of items) {
    for (const x of exposuresBySession.get(item.sessionId) ?? []) {
      if (item.receivedAt < x.exposedAt || (x.phaseEndedAt !== null && item.receivedAt >= x.phaseEndedAt)) continue;
      const unitKey = `${x.experimentId}\u0000${x.phase}\u0000${x.unitId}`;
      let unit = units.get(unitKey);
      if (!unit) units.set(unitKey, (unit = { experimentId: x.experimentId, phase: x.phase, unitId: x.unitId, stats: emptyStats() }));
      windows.set(unitKey, x);
      const s = unit.stats;

      const key = searchKey(x.experimentId, x.phase, x.unitId, item.queryId);
      let search = searches.get(key);
      if (!search) {
        const known = knownSearches.get(key);
        if (known === undefined) s.searches += 1;
        search = { experimentId: x.experimentId, phase: x.phase, unitId: x.unitId, queryId: item.queryId, hasClick: known ?? 0 };
        searches.set(key, search);
      }
      if (item.userAction === 'impression') s.impressions += 1;
      if (item.userAction === 'click') {
        s.clicks += 1;
        if (search.hasClick === 0) {
          search.hasClick = 1;
          s.searches_with_click += 1;
          if (item.position !== null) s.rr_sum += 1 / item.position;
        }
      }
      if (item.rating !== null) ((s.rated_items += 1), (s.rating_sum += item.rating));
      if (item.dwellTime !== null) {
        s.dwell_count += 1;
        s.dwell_sum += item.dwellTime;
        if (item.dwellTime >= SATISFIED_DWELL_MS) s.satisfied_clicks += 1;
      }
      if (item.timeToClick !== null) ((s.ttc_count += 1), (s.ttc_sum += item.timeToClick));
      if (item.scrollDepth !== null) ((s.scroll_count += 1), (s.scroll_sum += item.scrollDepth));
      if (item.userAction !== null && CONVERSION_ACTIONS.has(item.userAction) && x.stats.conversions === 0 && !converted.has(unitKey)) {
        converted.add(unitKey);
        s.conversions = 1;
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
      else for (const k of ['sx', 'sy', 'sxx', 'syy', 'sxy'] as const) acc[k] += change[k];
    }
  }
  return { units: [...units.values()], searches: changed, variantSums: [...variantSums.values()] };
}
