import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { createMigrator, migrateToLatest } from '../../src/storage/migrator.js';
import { createTestDatabase, describeOnEveryDatabase } from '../support/test-database.js';

/** The index names on a table, on either dialect (PostgreSQL: this deployment's schema only). */
async function indexesOf(handle: DatabaseHandle, kind: string, table: string): Promise<string[]> {
  const rows =
    kind === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(handle.db)
      : await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where tablename = ${table} and schemaname = current_schema()`.execute(handle.db);
  return rows.rows.map((r) => r.name).sort();
}

describeOnEveryDatabase('migration 0103: fewer indexes written per feedback submission', (kind) => {
  it('drops feedback_submissions_received_idx (only retention read it) and keeps the rest; down restores it', async () => {
    const testDb = await createTestDatabase(kind);
    const handle = await openDatabase(testDb.target);
    try {
      await migrateToLatest(handle);
      const after = await indexesOf(handle, kind, 'feedback_submissions');
      expect(after).not.toContain('feedback_submissions_received_idx');
      expect(after).toContain('feedback_submissions_session_idx');
      expect(await indexesOf(handle, kind, 'feedback_items')).toEqual(
        expect.arrayContaining(['feedback_items_received_idx', 'feedback_items_event_time_idx', 'feedback_items_session_idx']),
      );
      expect((await createMigrator(handle).migrateTo('0102-rank-exploration')).error).toBeUndefined();
      expect(await indexesOf(handle, kind, 'feedback_submissions')).toContain('feedback_submissions_received_idx');
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});
