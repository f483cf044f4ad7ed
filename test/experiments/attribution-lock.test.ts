import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { planAttribution } from '../../src/experiments/attribution/attribution.js';
import { KyselyAttributionStore } from '../../src/experiments/attribution/attribution.kysely-store.js';
import type { DatabaseHandle } from '../../src/storage/database.js';
import { createTestDatabase, describeOnEveryDatabase, openTestDatabase, type TestDatabase } from '../support/test-database.js';

const LOCK = 774_201_001;

describeOnEveryDatabase('attribution lock', (kind) => {
  const opened: { testDatabase: TestDatabase; database: DatabaseHandle }[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i += 1) {
      const testDatabase = await createTestDatabase(kind);
      opened.push({ testDatabase, database: await openTestDatabase(testDatabase) });
    }
  });
  afterAll(async () => {
    for (const { testDatabase, database } of opened) {
      await database.close();
      await testDatabase.drop();
    }
  });

  it("is held per schema: one schema's attribution never waits for another's (SQLite needs no lock)", async () => {
    const [a, b] = opened as [(typeof opened)[number], (typeof opened)[number]];
    const storeOf = (d: DatabaseHandle) => new KyselyAttributionStore(d.db, d.capabilities);
    if (!a.database.capabilities.supportsAdvisoryLocks) {
      // SQLite serialises writers itself: a file is one deployment.
      expect(await storeOf(a.database).attributeNext(10, planAttribution)).toBe(0);
      return;
    }
    await a.database.db.transaction().execute(async (trx) => {
      const held = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${LOCK}, hashtext(current_schema())) as locked`.execute(
        trx,
      );
      expect(held.rows[0]?.locked).toBe(true);
      // While schema a's lock is held: a's own attribution waits its turn, b's goes ahead.
      expect(await storeOf(a.database).attributeNext(10, planAttribution)).toBeNull();
      expect(await storeOf(b.database).attributeNext(10, planAttribution)).toBe(0);
    });
    expect(await storeOf(a.database).attributeNext(10, planAttribution)).toBe(0);
  });
});
