import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { createMigrator, migrateToLatest } from '../../src/storage/migrator.js';
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

  it('0100 keeps every alias and event, copies the latest move’s reason and experiment onto the alias, and down drops only cleared ones', async () => {
    const testDb = await createTestDatabase(kind);
    const handle = await openDatabase(testDb.target);
    const db = handle.db as unknown as Kysely<any>;
    try {
      const migrator = createMigrator(handle);
      expect((await migrator.migrateTo('0095-analytics-xid-cursor')).error).toBeUndefined();
      await db
        .insertInto('model_aliases')
        .values({ alias: 'production', model_id: 'r2', version: 3, updated_at: 2000, updated_by: 'ann' })
        .execute();
      const event = (id: string, from: string | null, to: string, reason: string, experiment: string | null) => ({
        id,
        alias: 'production',
        at: 1000,
        actor: 'ann',
        from_model_id: from,
        from_version: null,
        to_model_id: to,
        to_version: 3,
        reason,
        experiment_id: experiment,
      });
      await db
        .insertInto('model_alias_events')
        .values([event('01A', null, 'r1', 'first', null), event('01B', 'r1', 'r2', 'won', 'exp1')])
        .execute();

      await migrateToLatest(handle);
      expect(await db.selectFrom('model_aliases').selectAll().execute()).toEqual([
        {
          alias: 'production',
          model_id: 'r2',
          version: 3,
          updated_at: expect.anything(),
          updated_by: 'ann',
          reason: 'won',
          experiment_id: 'exp1',
        },
      ]);
      expect((await db.selectFrom('model_alias_events').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(['01A', '01B']);
      await db
        .insertInto('model_aliases')
        .values({ alias: 'canary', model_id: null, version: null, updated_at: 3000, updated_by: 'bob', reason: null, experiment_id: null })
        .execute();
      await db
        .insertInto('model_alias_events')
        .values({ ...event('01C', 'r1', 'x', 'off', null), alias: 'canary', to_model_id: null })
        .execute();

      expect((await migrator.migrateTo('0095-analytics-xid-cursor')).error).toBeUndefined();
      expect((await db.selectFrom('model_aliases').select('alias').execute()).map((r) => r.alias)).toEqual(['production']);
      expect((await db.selectFrom('model_alias_events').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(['01A', '01B']);
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});
