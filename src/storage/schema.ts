/**
 * Table types shared by every Kysely store. Times are epoch milliseconds (UTC) in BIGINT
 * columns and JSON is stored as text, so that SQLite and PostgreSQL hold identical values
 * and the stores never branch on the dialect to read them.
 */
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
}

export interface IdempotencyKeyTable {
  scope: string;
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: number;
}

export interface ModelTable {
  id: string;
  name: string;
  type: string;
  status: string;
  config: string;
  metrics: string;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export interface ExperimentTable {
  id: string;
  name: string;
  description: string | null;
  status: string;
  start_date: number | null;
  end_date: number | null;
  configuration: string;
  created_at: number;
  updated_at: number;
}

export interface Database {
  feedback_submissions: FeedbackSubmissionTable;
  feedback_items: FeedbackItemTable;
  idempotency_keys: IdempotencyKeyTable;
  models: ModelTable;
  experiments: ExperimentTable;
}
