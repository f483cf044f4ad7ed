import type { Generated } from 'kysely';
import type { AnalyticsCounterColumn } from '../../vocabulary/analytics-counters.js';

/** The search-analytics module's tables (the analytics file on SQLite): hour/day/window counters, entities, result slices, the fold's progress. Composed into `Database` by storage/schema.ts. */
export interface AnalyticsTables {
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
}

/** The additive counters of an analytics hour row (migration 0020): one list, in src/vocabulary, that the fold reads too. */
export type { AnalyticsCounterColumn };

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
