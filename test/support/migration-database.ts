import { expect } from 'vitest';
import type { Migrator } from 'kysely';
import { openDatabase, type DatabaseHandle, type DatabaseTarget } from '../../src/storage/database.js';
import { createMigrator } from '../../src/storage/migrator.js';
import { createTestDatabase, type DatabaseKind } from './test-database.js';

/**
 * A migration's test: a fresh database of `kind` migrated up to `version`, handed to `work` with its
 * migrator (to go on to the latest or back down) and its target; closed and dropped afterwards.
 */
export async function atMigration(
  kind: DatabaseKind,
  version: string,
  work: (db: DatabaseHandle, migrator: Migrator, target: DatabaseTarget) => Promise<void>,
): Promise<void> {
  const testDb = await createTestDatabase(kind);
  const db = await openDatabase(testDb.target);
  try {
    const migrator = createMigrator(db);
    expect((await migrator.migrateTo(version)).error).toBeUndefined();
    await work(db, migrator, testDb.target);
  } finally {
    await db.close();
    await testDb.drop();
  }
}
