import type { AttributionPlan, ExposureWindow } from './attribution.js';
import type { AttributableItem } from '../model/attribution-records.js';

export type Planner = (
  items: readonly AttributableItem[],
  exposuresBySession: ReadonlyMap<string, readonly ExposureWindow[]>,
  knownSearches: ReadonlyMap<string, number>,
) => AttributionPlan;

export interface AttributionStore {
  /**
   * In one transaction: claims up to `limit` not-yet-attributed feedback items (oldest first),
   * loads their sessions' exposures and known searches, applies the plan and marks the items
   * attributed. Returns how many items it processed, or null when another instance holds the
   * attribution lock (so each item is counted exactly once).
   */
  attributeNext(limit: number, plan: Planner): Promise<number | null>;
}
