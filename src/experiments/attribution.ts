import type { UnitStats } from '../storage/schema.js';

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
  exposedAt: number;
  /** When the phase ended (stop, conclude, new phase); null while it runs. */
  phaseEndedAt: number | null;
  /** The unit's conversions so far (0 or 1): conversion is per session. */
  conversions: number;
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

export interface AttributionPlan {
  units: UnitDelta[];
  searches: SearchUpsert[];
}

export const SATISFIED_DWELL_MS = 30_000;
const CONVERSION_ACTIONS = new Set(['purchase', 'conversion']);

export const searchKey = (experimentId: string, phase: number, unitId: string, queryId: string) =>
  `${experimentId}\u0000${phase}\u0000${unitId}\u0000${queryId}`;

const emptyStats = (): UnitStats => ({
  impressions: 0, clicks: 0, searches: 0, searches_with_click: 0, rr_sum: 0, rated_items: 0, rating_sum: 0,
  dwell_sum: 0, dwell_count: 0, satisfied_clicks: 0, ttc_sum: 0, ttc_count: 0, scroll_sum: 0, scroll_count: 0, conversions: 0,
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
  const searches = new Map<string, SearchUpsert>();
  const converted = new Set<string>();
  for (const item of items) {
    for (const x of exposuresBySession.get(item.sessionId) ?? []) {
      if (item.receivedAt < x.exposedAt || (x.phaseEndedAt !== null && item.receivedAt >= x.phaseEndedAt)) continue;
      const unitKey = `${x.experimentId}\u0000${x.phase}\u0000${x.unitId}`;
      let unit = units.get(unitKey);
      if (!unit) units.set(unitKey, (unit = { experimentId: x.experimentId, phase: x.phase, unitId: x.unitId, stats: emptyStats() }));
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
      if (item.rating !== null) (s.rated_items += 1), (s.rating_sum += item.rating);
      if (item.dwellTime !== null) {
        s.dwell_count += 1;
        s.dwell_sum += item.dwellTime;
        if (item.dwellTime >= SATISFIED_DWELL_MS) s.satisfied_clicks += 1;
      }
      if (item.timeToClick !== null) (s.ttc_count += 1), (s.ttc_sum += item.timeToClick);
      if (item.scrollDepth !== null) (s.scroll_count += 1), (s.scroll_sum += item.scrollDepth);
      if (item.userAction !== null && CONVERSION_ACTIONS.has(item.userAction) && x.conversions === 0 && !converted.has(unitKey)) {
        converted.add(unitKey);
        s.conversions = 1;
      }
    }
  }
  // Only new searches and searches whose first click arrived need writing.
  const changed = [...searches.entries()].filter(([key, sr]) => knownSearches.get(key) !== sr.hasClick).map(([, sr]) => sr);
  return { units: [...units.values()], searches: changed };
}
