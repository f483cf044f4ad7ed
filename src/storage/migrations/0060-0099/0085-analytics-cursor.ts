import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Search analytics on SQLite: a cursor instead of a per-item flag (issue 12, ingestion cost).
 *
 * With one writer at a time, SQLite gives each new feedback row a rowid above every committed one,
 * so "folded through rowid N" (analytics_progress.folded_through) names exactly the items folded,
 * and the fold no longer sets feedback_items.analytics_done, nor does ingestion keep the backlog
 * index in step. Items folded before this migration keep analytics_done = 1 and the fold skips
 * them, so the cursor may start below them.
 *
 * The one way rowid order breaks: SQLite gives a new row max(rowid) + 1, so deleting the rows with
 * the largest rowids (an erasure of the newest session, or retention emptying the table) lets the
 * next rows take rowids the cursor has passed. A trigger records each such deletion in
 * feedback_rowid_rewinds (the rowid the table now ends at); the fold reads the rewinds it has not
 * seen (analytics_progress.rewinds_through) and moves its cursor back to each one's end before
 * claiming. Deletions below the end (retention, most erasures) do not fire it.
 *
 * PostgreSQL keeps the flag and its backlog index: concurrent writers commit out of id order there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('analytics_progress').addColumn('folded_through', 'bigint').execute();
  await db.schema
    .alterTable('analytics_progress')
    .addColumn('rewinds_through', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;

  await db.schema
    .createTable('feedback_rowid_rewinds')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('ends_at', 'integer', (c) => c.notNull())
    .execute();
  await sql`
    create trigger feedback_items_rowid_rewind after delete on feedback_items
    when old.rowid > coalesce((select max(rowid) from feedback_items), 0)
    begin
      insert into feedback_rowid_rewinds (ends_at) values (coalesce((select max(rowid) from feedback_items), 0));
    end`.execute(db);
  // Everything below the first unfolded item is folded; items above it folded before (flag = 1) are skipped.
  await sql`
    update analytics_progress set folded_through = coalesce(
      (select min(rowid) - 1 from feedback_items where analytics_done = 0),
      (select max(rowid) from feedback_items),
      0)`.execute(db);
  await db.schema.dropIndex('feedback_items_analytics_backlog_idx').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await sql`update feedback_items set analytics_done = 1 where rowid <= (select folded_through from analytics_progress where id = 1)`.execute(
      db,
    );
    await sql`drop trigger if exists feedback_items_rowid_rewind`.execute(db);
    await db.schema.dropTable('feedback_rowid_rewinds').ifExists().execute();
    await db.schema
      .createIndex('feedback_items_analytics_backlog_idx')
      .on('feedback_items')
      .column('id')
      .where(sql.ref('analytics_done'), '=', 0)
      .execute();
  }
  await db.schema.alterTable('analytics_progress').dropColumn('rewinds_through').execute();
  await db.schema.alterTable('analytics_progress').dropColumn('folded_through').execute();
}
