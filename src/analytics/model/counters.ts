import { HOUR_MS } from '../../common/time.js';
import { ANALYTICS_COUNTERS, type AnalyticsCounterColumn } from '../../vocabulary/analytics-counters.js';

/**
 * The analytics domain model: what an hour row counts, the dimensions traffic is sliced by, and
 * what analytics reads of a feedback item. Pure: the fold, the stores and the service share it.
 */

/** The hour of an analytics row (common/time.ts), re-exported: the model's readers and the stores take it from here. */
export { HOUR_MS };
/** First clicks at positions 1…20 have their own bucket; 21 holds every position beyond. */
export const HISTOGRAM_BUCKETS = 21;

export const DIMENSIONS = ['deviceType', 'searchType', 'language', 'category'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export type Counter = AnalyticsCounterColumn;
export const COUNTERS: readonly Counter[] = ANALYTICS_COUNTERS;
export type Counters = Record<Counter, number>;

export const histogramColumn = (position: number): Counter =>
  `fc_${String(Math.min(Math.max(Math.trunc(position), 1), HISTOGRAM_BUCKETS)).padStart(2, '0')}` as Counter;

const ZERO = Object.freeze(Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Counters);

export function emptyCounters(): Counters {
  // A spread of one template object: the fold creates one per row it touches.
  return { ...ZERO };
}

export interface AnalyticsItem {
  id: string;
  sessionId: string;
  queryId: string;
  queryHash: string | null;
  resultId: string | null;
  userAction: string | null;
  eventTime: number;
  position: number | null;
  deviceType: string | null;
  searchType: string | null;
  language: string | null;
  category: string | null;
  /** customMetadata.queryText */
  queryText: string | null;
  /** customMetadata.resultCount */
  resultCount: number | null;
}

/** customMetadata keys analytics recognises, read from the item's stored extra metadata. */
export function recognisedKeys(extraMetadata: string | null): { queryText: string | null; resultCount: number | null } {
  if (!extraMetadata) return { queryText: null, resultCount: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(extraMetadata);
  } catch {
    return { queryText: null, resultCount: null };
  }
  const o = (parsed ?? {}) as Record<string, unknown>;
  const text = typeof o.queryText === 'string' && o.queryText.trim() !== '' ? o.queryText.trim().slice(0, 512) : null;
  const count = typeof o.resultCount === 'number' && Number.isFinite(o.resultCount) && o.resultCount >= 0 ? o.resultCount : null;
  return { queryText: text, resultCount: count };
}

export const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;
