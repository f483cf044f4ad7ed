import { expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { migrations } from '../../src/storage/migrations/index.js';
import { UNIT_STAT_COLUMNS } from '../../src/vocabulary/index.js';
import { createTestDatabase, describeOnEveryDatabase } from '../support/test-database.js';

describeOnEveryDatabase('migrations', (kind) => {
  it('two instances migrating the same empty database at once both succeed, each migration applied once', async () => {
    const testDb = await createTestDatabase(kind);
    const a = await openDatabase(testDb.target);
    const b = await openDatabase(testDb.target);
    try {
      const [ra, rb] = await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
      expect([...ra.applied, ...rb.applied].sort()).toEqual(Object.keys(migrations).sort());
      const again = await migrateToLatest(a);
      expect(again.applied).toEqual([]);
      const rows = await a.db
        .selectFrom('kysely_migration' as never)
        .selectAll()
        .execute();
      expect(rows).toHaveLength(Object.keys(migrations).length);
      // The schema is usable: a write and a read through the new tables.
      await a.db.insertInto('feedback_submissions').values({ id: 'x', session_id: 's', item_count: 0, received_at: 1 }).execute();
      expect(await b.db.selectFrom('feedback_submissions').select('id').execute()).toEqual([{ id: 'x' }]);
    } finally {
      await a.close();
      await b.close();
      await testDb.drop();
    }
  });

  it('the migrated schema matches the code: every metric-catalogue column exists, dropped tables are gone', async () => {
    const testDb = await createTestDatabase(kind);
    const db = await openDatabase(testDb.target);
    try {
      await migrateToLatest(db);
      // On PostgreSQL introspection reads this deployment's schema only: other schemas on the
      // server (other test files, other deployments) are neither listed nor read.
      const tables = await db.db.introspection.getTables();
      if (db.schema !== undefined) expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([db.schema]));
      const names = tables.map((t) => t.name);
      expect(names).not.toContain('job_state');
      const units = tables.find((t) => t.name === 'experiment_units')!;
      expect(units.columns.map((c) => c.name)).toEqual(expect.arrayContaining([...UNIT_STAT_COLUMNS]));
    } finally {
      await db.close();
      await testDb.drop();
    }
  });
});
