import { recognisedKeys, type AnalyticsItem } from '../../model/counters.js';
import { pickFeedbackFields, type FeedbackColumns } from '../../../storage/tables/feedback-row.js';

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

/** The feedback_items columns a fold reads (their fields: storage/tables/feedback-row.ts). */
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

export function toItem(r: FeedbackColumns<(typeof ITEM_COLUMNS)[number]>): ClaimedItem {
  const { extraMetadata, eventTime, receivedAt, ...fields } = pickFeedbackFields(r, ITEM_COLUMNS);
  // int8 columns may come as text (pg's default for int8).
  return { ...fields, eventTime: Number(eventTime), ...recognisedKeys(extraMetadata), receivedAt: Number(receivedAt) };
}
