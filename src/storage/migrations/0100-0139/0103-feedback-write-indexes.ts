import type { Kysely } from 'kysely';

/**
 * Fewer indexes written per feedback submission (issue 28: ingestion CPU). Every index of a table
 * is one more B-tree page dirtied by each commit, written to the WAL, synced and checkpointed.
 * The indexes of the feedback tables and the query that needs each (docs/operations.md keeps the list):
 *
 *   feedback_items (id) primary key, (submission_id, seq) unique: GET /feedback/:id, import/export keys
 *   feedback_items (session_id, id): list by session, erasure, pre-exposure covariates (CUPED)
 *   feedback_items (query_id, id): list by queryId, attribution's per-search reads and interleaving credit
 *   feedback_items (event_time): training and evaluation windows, the side-by-side view's logged features
 *   feedback_items (received_at): experiment planning, exploration's recent searches, retention (SQLite)
 *   feedback_items (id) where attributed = 0: the attribution backlog
 *   feedback_items (analytics_xid, id), PostgreSQL: the analytics fold's windows (migration 0095)
 *   feedback_submissions (id) primary key; (session_id, id): erasure of a session
 *   feedback_submissions (received_at): only the retention job's delete of old submissions — dropped
 *     here. Retention (opt-in, hourly) finds old submissions by scanning in storage order instead,
 *     which meets the oldest first: each batch's scan stops at its first rows, and the last reads
 *     the table once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('feedback_submissions_received_idx').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('feedback_submissions_received_idx').on('feedback_submissions').column('received_at').execute();
}
