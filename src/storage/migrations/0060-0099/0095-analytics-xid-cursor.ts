import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Search analytics on PostgreSQL: snapshots instead of a per-item flag (issue 12, ingestion cost),
 * as migration 0085 did for SQLite with rowids. Flagging each folded item rewrote its row and every
 * index of feedback_items (23–27 µs of the fold's ~150 µs per item, and a dead row for vacuum).
 *
 * PostgreSQL's writers commit out of id order, so the fold follows transactions instead, the way
 * PgQ cuts a queue into batches: each row records the id of the transaction that inserted it
 * (feedback_items.analytics_xid, default pg_current_xact_id()), and the fold works through windows
 * between two snapshots — the rows whose transaction is visible in the window's end snapshot
 * (analytics_progress.window_snapshot) and was not in its start (folded_snapshot). A transaction
 * commits once, so it becomes visible between exactly one pair: each row is folded exactly once,
 * whatever other transactions on the server run meanwhile. Within a window the fold moves through
 * rows in (analytics_xid, id) order (folded_xid, folded_id), batch by batch.
 *
 * Rows folded before this migration keep a null analytics_xid, which no window holds; rows not
 * folded yet get analytics_xid 1, invisible in the first start snapshot '1:1:' and visible in every
 * real one, so the first window takes them. One transaction holds the table's lock throughout, so
 * no insert lands between the steps.
 *
 * SQLite: nothing (it follows rowids, migration 0085).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table feedback_items add column analytics_xid xid8`.execute(db);
  await sql`update feedback_items set analytics_xid = '1' where analytics_done = 0`.execute(db);
  await sql`alter table feedback_items alter column analytics_xid set default pg_current_xact_id()`.execute(db);
  await sql`create index feedback_items_analytics_xid_idx on feedback_items (analytics_xid, id)`.execute(db);
  await db.schema.dropIndex('feedback_items_analytics_backlog_idx').ifExists().execute();
  await sql`alter table analytics_progress add column folded_snapshot pg_snapshot not null default '1:1:'`.execute(db);
  await sql`alter table analytics_progress add column window_snapshot pg_snapshot`.execute(db);
  await sql`alter table analytics_progress add column folded_xid xid8`.execute(db);
  await sql`alter table analytics_progress add column folded_id varchar(26)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // Back to the flag: rows visible in the start snapshot are folded, and in the open window those
  // the fold has passed.
  await sql`
    update feedback_items f set analytics_done = 1 from analytics_progress p
    where p.id = 1 and f.analytics_xid is not null and (
      pg_visible_in_snapshot(f.analytics_xid, p.folded_snapshot)
      or (p.window_snapshot is not null and pg_visible_in_snapshot(f.analytics_xid, p.window_snapshot)
          and (f.analytics_xid, f.id) <= (p.folded_xid, p.folded_id)))`.execute(db);
  await db.schema
    .createIndex('feedback_items_analytics_backlog_idx')
    .on('feedback_items')
    .column('id')
    .where(sql.ref('analytics_done'), '=', 0)
    .execute();
  await sql`drop index feedback_items_analytics_xid_idx`.execute(db);
  await sql`alter table feedback_items drop column analytics_xid`.execute(db);
  for (const column of ['folded_id', 'folded_xid', 'window_snapshot', 'folded_snapshot']) {
    await sql`alter table analytics_progress drop column ${sql.raw(column)}`.execute(db);
  }
}
