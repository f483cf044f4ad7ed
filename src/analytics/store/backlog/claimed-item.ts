import { recognisedKeys, type AnalyticsItem } from '../../model/counters.js';

/**
 * What the analytics backlogs (backlog.ts) read of a feedback item, and where
 * a fold stands in each database's backlog.
 */

export type ClaimedItem = AnalyticsItem & { receivedAt: number };

/** SQLite: the rowid folded through, and the last rewind followed (migration 0085). */
export interface RowidPosition {
  kind: 'rowid';
  foldedThrough: number;
  rewindsThrough: number;
  /** analytics_progress as the claim read it, before rewinds: another fold changes it. */
  stored: { foldedThrough: number | null; rewindsThrough: number };
}

/**
 * PostgreSQL (pg_snapshot values as text, migration 0095): rows of transactions visible in `folded`
 * are folded; `window` is the end of the window being folded (null between windows), and (xid, id)
 * the last row the fold has reached in it (null before its first).
 */
export interface SnapshotPosition {
  kind: 'snapshot';
  folded: string;
  window: string | null;
  xid: string | null;
  id: string | null;
}

export type BacklogPosition = RowidPosition | SnapshotPosition;

export const ITEM_COLUMNS = [
  'id',
  'session_id',
  'query_id',
  'query_hash',
  'result_id',
  'user_action',
  'event_time',
  'position',
  'device_type',
  'search_type',
  'language',
  'category',
  'extra_metadata',
  'received_at',
] as const;

export function toItem(r: { [K in (typeof ITEM_COLUMNS)[number]]: unknown }): ClaimedItem {
  return {
    id: r.id as string,
    sessionId: r.session_id as string,
    queryId: r.query_id as string,
    queryHash: r.query_hash as string | null,
    resultId: r.result_id as string | null,
    userAction: r.user_action as string | null,
    eventTime: Number(r.event_time),
    position: r.position as number | null,
    deviceType: r.device_type as string | null,
    searchType: r.search_type as string | null,
    language: r.language as string | null,
    category: r.category as string | null,
    ...recognisedKeys(r.extra_metadata as string | null),
    receivedAt: Number(r.received_at),
  };
}
