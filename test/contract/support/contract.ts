import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { DatabaseHandle } from '../../../src/storage/database.js';
import { createTestDatabase, describeOnEveryDatabase, openTestDatabase, type TestDatabase } from '../../support/test-database.js';

/** Empties every table (not the migration bookkeeping), so each contract case starts from nothing. */
async function emptyTables(database: DatabaseHandle): Promise<void> {
  const tables = (await database.db.introspection.getTables()).map((t) => t.name);
  for (const name of tables) await sql`delete from ${sql.table(name)}`.execute(database.db);
}

/**
 * A store contract: the same cases run against the Kysely store on every database of the run
 * and against its in-memory fake, so a fake cannot drift from the store it stands in for.
 * `world` builds what the cases use (the store, and the stores that set up its data), fresh for
 * every case: over an emptied test database, or over new in-memory tables.
 */
export function describeContract<W>(
  name: string,
  world: { kysely: (database: DatabaseHandle) => W; fake: () => W },
  cases: (get: () => W) => void,
): void {
  describeOnEveryDatabase(`${name} contract: Kysely store`, (kind) => {
    let testDatabase: TestDatabase;
    let database: DatabaseHandle;
    let current: W;
    beforeAll(async () => {
      testDatabase = await createTestDatabase(kind);
      database = await openTestDatabase(testDatabase);
    });
    afterAll(async () => {
      await database?.close();
      await testDatabase?.drop();
    });
    beforeEach(async () => {
      await emptyTables(database);
      current = world.kysely(database);
    });
    cases(() => current);
  });
  describe(`${name} contract: in-memory fake`, () => {
    let current: W;
    beforeEach(() => {
      current = world.fake();
    });
    cases(() => current);
  });
}
