import type { AnalyticsItem } from '../../../src/analytics/model/counters.js';

// The one builder of an analytics item for tests, with no database behind it, so the pure core's
// colocated tests (src/analytics/**) and the database tests share one default item.

/** One impression of search q1 (session A, query "shoes", result r1 at 1) at `eventTime`, no dimensions; `over` changes any field. */
export function analyticsItem(id: string, eventTime: number, over: Partial<AnalyticsItem> = {}): AnalyticsItem {
  return {
    id,
    sessionId: 'A',
    queryId: 'q1',
    queryHash: 'shoes',
    resultId: 'r1',
    userAction: 'impression',
    eventTime,
    position: 1,
    deviceType: null,
    searchType: null,
    language: null,
    category: null,
    queryText: null,
    resultCount: null,
    ...over,
  };
}
