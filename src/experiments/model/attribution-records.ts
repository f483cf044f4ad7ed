import type { QuantileGridDelta } from '../../stats/index.js';
import type { MetricItem, MetricName, MomentSums, QuantileSource, UnitStats } from '../../vocabulary/index.js';

/**
 * The records attribution reads and writes that other parts of the module share: the feedback item as
 * attribution reads it and the read-model sums it keeps (results read them; the fakes hold them).
 */

/** A feedback item as attribution reads it: what the metrics fold, and where and when it belongs. */
export interface AttributableItem extends MetricItem {
  id: string;
  sessionId: string;
  queryId: string;
  receivedAt: number;
  /** The query the item belongs to (coverage of queries by experiments); null items are not counted there. */
  queryHash?: string | null;
  /** The item's slice dimensions (analysis.dimensions); a session's value is its first attributed item's. */
  deviceType?: string | null;
  searchType?: string | null;
  language?: string | null;
  category?: string | null;
}

/** Change of a variant-day's quantile grid sums for one source (day = the units' exposure day). */
export interface QuantileSumDelta {
  experimentId: string;
  phase: number;
  variantId: string;
  day: number;
  source: QuantileSource;
  delta: QuantileGridDelta;
}

/** Change of one slice's quantile grid sums for a variant and source. */
export interface SliceQuantileSumDelta {
  experimentId: string;
  phase: number;
  dimension: string;
  value: string;
  variantId: string;
  source: QuantileSource;
  delta: QuantileGridDelta;
}

/** Change of one slice's sums for a variant and metric; `units` counts units entering the slice. */
export interface SliceSumDelta extends MomentSums {
  experimentId: string;
  phase: number;
  dimension: string;
  value: string;
  variantId: string;
  metric: MetricName;
  units: number;
}

/**
 * Change of a variant's coverage of one query (experiment_query_sums): searches opened, searches that got
 * their first click, and the latest receivedAt of the items that brought either. A search counts under the
 * queryHash of the item that opens it, its click under the queryHash of the item that brings the click.
 */
export interface QuerySumDelta {
  experimentId: string;
  phase: number;
  variantId: string;
  queryHash: string;
  searches: number;
  clickedSearches: number;
  lastSeen: number;
}

/** One session's items folded as attribution folds them (attribution/fake-session-fold.ts; the fakes take it as a parameter). */
export type SessionFold = (items: readonly AttributableItem[]) => UnitStats;
