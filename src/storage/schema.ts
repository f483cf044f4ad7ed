import type { Generated } from 'kysely';
import type { UnitStatColumn } from '../vocabulary/index.js';

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
  phase: Generated<number>;
  conclusion: string | null;
}

export interface ExperimentPhaseTable {
  experiment_id: string;
  phase: number;
  seed: string;
  configuration: string;
  started_at: number;
  ended_at: number | null;
}

export interface ExperimentEventTable {
  id: string;
  experiment_id: string;
  at: number;
  actor: string;
  action: string;
  before: string | null;
  after: string | null;
}

export type ExperimentUnitTable = {
  experiment_id: string;
  phase: number;
  unit_id: string;
  variant_id: string;
  exposed_at: number;
  covariates: string | null;
  /** JSON {attribute: value} of the declared `attr:` slice dimensions, from the first exposure (0031). */
  slice_attributes?: string | null;
  /** JSON {source: sorted grid positions} of the unit's quantile-metric items (0032). */
  quantile_positions?: string | null;
} & { [K in UnitStatColumn]: Generated<number> };

/** Quantile grid sums (0032): units, items, Σm² and per-threshold Σc, Σc², Σc·m as JSON `[from, to, …values]`. */
export interface QuantileGridColumns {
  source: string;
  units: number;
  items: number;
  items_squared: number;
  below: string;
  below_squared: string;
  below_times_items: string;
}

export interface ExperimentQuantileSumsTable extends QuantileGridColumns {
  experiment_id: string;
  phase: number;
  variant_id: string;
  day: number;
}

export interface ExperimentSliceQuantileSumsTable extends QuantileGridColumns {
  experiment_id: string;
  phase: number;
  dimension: string;
  value: string;
  variant_id: string;
}

export interface ExperimentSearchTable {
  experiment_id: string;
  phase: number;
  unit_id: string;
  query_id: string;
  has_click: Generated<number>;
}

export interface ExperimentUnitCovariateTable {
  experiment_id: string;
  phase: number;
  unit_id: string;
  metric: string;
  x: number;
  y: number;
  source: string;
}

export interface ExperimentVariantUnitsTable {
  experiment_id: string;
  phase: number;
  variant_id: string;
  day: number;
  units: number;
}

export interface ExperimentVariantSumsTable {
  experiment_id: string;
  phase: number;
  variant_id: string;
  day: number;
  metric: string;
  sx: number;
  sy: number;
  sxx: number;
  syy: number;
  sxy: number;
}

export interface ExperimentUnitSlicesTable {
  experiment_id: string;
  phase: number;
  unit_id: string;
  /** JSON {dimension: value}. */
  slice_values: string;
}

export interface ExperimentSliceSumsTable {
  experiment_id: string;
  phase: number;
  dimension: string;
  value: string;
  variant_id: string;
  metric: string;
  units: number;
  sx: number;
  sy: number;
  sxx: number;
  syy: number;
  sxy: number;
}

/** Per experiment phase, variant and query hash: searches and searches with a click, kept by attribution (0080). */
export interface ExperimentQuerySumsTable {
  experiment_id: string;
  phase: number;
  variant_id: string;
  query_hash: string;
  searches: number;
  clicked_searches: number;
  /** Latest received_at of the items that opened or first clicked one of these searches. */
  last_seen: number;
}

export interface ApiKeyTable {
  id: string;
  name: string;
  scope: string;
  key_hash: string;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
}

export interface TrainingJobTable {
  id: string;
  model_id: string;
  status: string;
  reason: string;
  force: Generated<number>;
  run_after: number;
  requested_at: number;
  started_at: number | null;
  finished_at: number | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  attempts: Generated<number>;
  error: string | null;
  version: number | null;
}

export interface ModelVersionTable {
  model_id: string;
  version: number;
  job_id: string;
  outcome: string;
  message: string | null;
  metrics: string;
  counts: string;
  window_start: number | null;
  window_end: number | null;
  training_seconds: number;
  artifact: string;
  created_at: number;
}

export interface ModelTrainingStateTable {
  model_id: string;
  active_version: number | null;
  latest_version: Generated<number>;
  last_outcome: string | null;
  next_retrain_at: number | null;
}

export interface TrainingDatasetTable {
  model_id: string;
  format: string;
  content: string;
  bytes: number;
  rows: number;
  queries: number;
  features: number;
  uploaded_at: number;
}

type HistogramBucket =
  | '01'
  | '02'
  | '03'
  | '04'
  | '05'
  | '06'
  | '07'
  | '08'
  | '09'
  | '10'
  | '11'
  | '12'
  | '13'
  | '14'
  | '15'
  | '16'
  | '17'
  | '18'
  | '19'
  | '20'
  | '21';

/** The additive counters of an analytics hour row (migration 0020): fc_01…fc_20 first clicks at that position, fc_21 beyond. */
export type AnalyticsCounterColumn =
  | 'searches'
  | 'abandoned'
  | 'sessions'
  | 'impressions'
  | 'clicks'
  | 'conversions'
  | 'first_clicks'
  | 'first_click_position_sum'
  | 'zero_result_searches'
  | 'result_count_searches'
  | 'first_click_rr_sum'
  | `fc_${HistogramBucket}`;

/** upserts (migration 0021): conflicts the fold's upserts met (0 right after the insert that created the row) */
export type AnalyticsQueryHourTable = {
  dimension: string;
  dim_value: string;
  hour: number;
  query_hash: string;
  upserts: Generated<number>;
} & Record<AnalyticsCounterColumn, number>;
/** queries (migration 0021): how many query hour rows the hour has (distinct queries in it). */
export type AnalyticsTotalHourTable = { dimension: string; dim_value: string; hour: number; queries: Generated<number> } & Record<
  AnalyticsCounterColumn,
  number
>;

/** Migration 0021: a (query, UTC day) with a query hour row, and per day how many there are. */
export interface AnalyticsQueryDayTable {
  dimension: string;
  dim_value: string;
  day: number;
  query_hash: string;
}
export interface AnalyticsTotalDayTable {
  dimension: string;
  dim_value: string;
  day: number;
  queries: number;
}

export interface AnalyticsEntityTable {
  key: string;
  state: string;
  /** migration 0021: latest received_at of the items folded into the state (retention removes the row with them) */
  last_received: Generated<number>;
}

/** Impressions and clicks per query, hour, result and position, per dimension value ('' = all traffic, migration 0075). */
export interface AnalyticsResultSliceTable {
  dimension: string;
  dim_value: string;
  query_hash: string;
  hour: number;
  result_id: string;
  position: number;
  impressions: number;
  clicks: number;
}

export interface AnalyticsQueryTextTable {
  query_hash: string;
  query_text: string;
  source_id: string;
}

export interface AnalyticsProgressTable {
  id: number;
  fresh_as_of: number | null;
  /** migration 0021: the hour analytics_query_windows' spans end at */
  window_anchor: number | null;
  /** migration 0085, SQLite: the rowid of feedback_items the fold has folded through (the cursor) */
  folded_through: number | null;
  /** migration 0085, SQLite: the last feedback_rowid_rewinds.seq the cursor has followed */
  rewinds_through: Generated<number>;
  /** migration 0095, PostgreSQL only (pg_snapshot as text): rows of transactions visible in it are folded */
  folded_snapshot: Generated<string>;
  /** migration 0095, PostgreSQL only: the end of the window being folded (null between windows) */
  window_snapshot: string | null;
  /** migration 0095, PostgreSQL only: the (analytics_xid, id) the fold has reached in the open window */
  folded_xid: string | null;
  folded_id: string | null;
}

/** SQLite only (migration 0085): the rowid feedback_items ended at after a deletion of its newest rows. */
export interface FeedbackRowidRewindTable {
  seq: Generated<number>;
  ends_at: number;
}

/** Per-query counters summed over [anchor − span hours, anchor) (migration 0021). */
export type AnalyticsQueryWindowTable = {
  span: number;
  dimension: string;
  dim_value: string;
  query_hash: string;
  hour_rows: number;
} & Record<AnalyticsCounterColumn, number>;

/** Bulk import: the digest of each imported line's item, so a re-import stores nothing new. */
export interface FeedbackImportKeyTable {
  import_key: string;
  item_id: string;
  imported_at: number;
}

export interface Database {
  feedback_submissions: FeedbackSubmissionTable;
  feedback_items: FeedbackItemTable;
  idempotency_keys: IdempotencyKeyTable;
  models: ModelTable;
  experiments: ExperimentTable;
  experiment_phases: ExperimentPhaseTable;
  experiment_events: ExperimentEventTable;
  experiment_units: ExperimentUnitTable;
  experiment_searches: ExperimentSearchTable;
  experiment_unit_covariates: ExperimentUnitCovariateTable;
  experiment_variant_units: ExperimentVariantUnitsTable;
  experiment_variant_sums: ExperimentVariantSumsTable;
  experiment_unit_slices: ExperimentUnitSlicesTable;
  experiment_slice_sums: ExperimentSliceSumsTable;
  experiment_quantile_sums: ExperimentQuantileSumsTable;
  experiment_slice_quantile_sums: ExperimentSliceQuantileSumsTable;
  experiment_query_sums: ExperimentQuerySumsTable;
  api_keys: ApiKeyTable;
  training_jobs: TrainingJobTable;
  model_versions: ModelVersionTable;
  model_training_state: ModelTrainingStateTable;
  training_datasets: TrainingDatasetTable;
  analytics_entities: AnalyticsEntityTable;
  analytics_query_hours: AnalyticsQueryHourTable;
  analytics_total_hours: AnalyticsTotalHourTable;
  analytics_query_texts: AnalyticsQueryTextTable;
  analytics_progress: AnalyticsProgressTable;
  feedback_rowid_rewinds: FeedbackRowidRewindTable;
  analytics_query_windows: AnalyticsQueryWindowTable;
  analytics_query_days: AnalyticsQueryDayTable;
  analytics_total_days: AnalyticsTotalDayTable;
  analytics_result_slices: AnalyticsResultSliceTable;
  model_aliases: ModelAliasTable;
  model_alias_events: ModelAliasEventTable;
  interleaved_queries: InterleavedQueryTable;
  feedback_import_keys: FeedbackImportKeyTable;
}

export interface ModelAliasTable {
  alias: string;
  model_id: string;
  version: number | null;
  updated_at: number;
  updated_by: string;
}

export interface ModelAliasEventTable {
  id: string;
  alias: string;
  at: number;
  actor: string;
  from_model_id: string | null;
  from_version: number | null;
  to_model_id: string;
  to_version: number | null;
  reason: string | null;
  experiment_id: string | null;
}

export interface InterleavedQueryTable {
  experiment_id: string;
  phase: number;
  unit_id: string;
  query_id: string;
  recorded_at: number;
  /** JSON: {teams, depth, results: [[resultId, teamIndex], …]} in shown order. */
  list: string;
  /** JSON QueryCredit once a click was folded in; null before. */
  credit: string | null;
}
