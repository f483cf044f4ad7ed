import type { Generated } from 'kysely';

/** The feedback module's tables: submissions and their items, idempotency keys, bulk-import keys. Composed into `Database` by storage/schema.ts. */
export interface FeedbackTables {
  feedback_submissions: FeedbackSubmissionTable;
  feedback_items: FeedbackItemTable;
  idempotency_keys: IdempotencyKeyTable;
  feedback_import_keys: FeedbackImportKeyTable;
}

export interface FeedbackSubmissionTable {
  id: string;
  session_id: string;
  item_count: number;
  received_at: number;
}

export interface FeedbackItemTable {
  id: string;
  submission_id: string;
  seq: number;
  session_id: string;
  query_id: string;
  rating: number | null;
  user_action: string | null;
  event_time: number;
  received_at: number;
  result_id: string | null;
  query_hash: string | null;
  engagement_type: string | null;
  search_type: string | null;
  position: number | null;
  time_to_click: number | null;
  device_type: string | null;
  viewport_width: number | null;
  viewport_height: number | null;
  scroll_depth: number | null;
  dwell_time: number | null;
  category: string | null;
  language: string | null;
  extra_metadata: string | null;
  attributed: Generated<number>;
  analytics_done: Generated<number>;
  /** migration 0095, PostgreSQL only: the inserting transaction's id (xid8, read as text), the fold's cursor order */
  analytics_xid: Generated<string | null>;
}

export interface IdempotencyKeyTable {
  scope: string;
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: number;
  /** The submission's session (null for keys stored before migration 0060). */
  session_id: string | null;
}

/** Bulk import: the digest of each imported line's item, so a re-import stores nothing new. */
export interface FeedbackImportKeyTable {
  import_key: string;
  item_id: string;
  imported_at: number;
}
