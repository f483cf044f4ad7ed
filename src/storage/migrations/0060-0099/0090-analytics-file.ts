import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: the search-analytics tables move to their own file, attached to every connection as the
 * schema `analytics` (storage/sqlite-analytics-file.ts says why). Each `analytics_*` table is created
 * again there from its own stored definition (columns, keys, WITHOUT ROWID) with its indexes, filled
 * from the old one, and the old one dropped; queries keep naming the tables without a schema, which
 * SQLite resolves to the attached file. PostgreSQL keeps one schema.
 *
 * Down moves them back into the main file.
 */
const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

async function move(db: Kysely<any>, from: 'main' | 'analytics', to: 'main' | 'analytics'): Promise<void> {
  const objects = await sql<{ type: 'table' | 'index'; name: string; tbl_name: string; sql: string | null }>`
    select type, name, tbl_name, sql from ${sql.raw(from)}.sqlite_master
    where tbl_name like 'analytics\\_%' escape '\\' and type in ('table', 'index') order by type desc, name`.execute(db);
  const tables = objects.rows.filter((o) => o.type === 'table');
  for (const t of tables) {
    // A crash between the two files' commits may leave a copy behind: the move starts again from the source.
    await sql`drop table if exists ${sql.raw(`${to}."${t.name}"`)}`.execute(db);
    await sql.raw(qualify(t.sql!, 'TABLE', t.name, to)).execute(db);
    await sql.raw(`insert into ${to}."${t.name}" select * from ${from}."${t.name}"`).execute(db);
  }
  // Indexes SQLite makes for keys (sql null) come with their table; the others are created again.
  for (const i of objects.rows.filter((o) => o.type === 'index' && o.sql !== null)) {
    await sql.raw(qualify(i.sql!, 'INDEX', i.name, to)).execute(db);
  }
  for (const t of tables) await sql.raw(`drop table ${from}."${t.name}"`).execute(db);
}

/** `CREATE TABLE "x" …` → `CREATE TABLE to."x" …` (likewise an index: its table is then looked up in `to`). */
function qualify(definition: string, kind: 'TABLE' | 'INDEX', name: string, to: string): string {
  const head = new RegExp(`^CREATE\\s+(UNIQUE\\s+)?${kind}\\s+(?:"${name}"|${name}|\`${name}\`)`, 'i');
  if (!head.test(definition)) throw new Error(`migration 0090: unexpected definition of ${name}: ${definition.slice(0, 80)}`);
  return definition.replace(head, (_, unique: string | undefined) => `CREATE ${unique ?? ''}${kind} ${to}."${name}"`);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await move(db, 'main', 'analytics');
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await move(db, 'analytics', 'main');
}
