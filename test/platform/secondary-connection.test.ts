import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabaseInThread } from '../../src/storage/database.js';
import { sleep } from '../support/ports.js';
import { useTestDatabase } from '../support/test-database.js';

/** A worker thread's own (secondary) connection to the SQLite file another thread opened (openDatabaseInThread). */
describe('a secondary SQLite connection', () => {
  const t = useTestDatabase('sqlite');

  it('closing a connection waits for its transaction in flight, so the other connection can write after', async () => {
    // In the analytics file: the only file a secondary connection writes.
    await sql`create table analytics.analytics_closing (n integer not null)`.execute(t.database.db);
    const second = openDatabaseInThread(t.database.threadShare()!);
    const holding = second.db.transaction().execute(async (trx) => {
      await sql`insert into analytics_closing (n) values (1)`.execute(trx);
      await sleep(100);
      await sql`insert into analytics_closing (n) values (2)`.execute(trx);
    });
    await sleep(20);
    await Promise.all([second.close(), holding]);
    // Cut short, the transaction would have failed and row 2 would be missing.
    await sql`insert into analytics_closing (n) values (3)`.execute(t.database.db);
    const rows = await sql<{ n: number }>`select n from analytics_closing order by n`.execute(t.database.db);
    expect(rows.rows.map((r) => Number(r.n))).toEqual([1, 2, 3]);
  });

  it('is not offered for an in-memory database, which no other connection can reach', async () => {
    const { openDatabase } = await import('../../src/storage/database.js');
    const memory = await openDatabase({ kind: 'sqlite', path: ':memory:' });
    try {
      expect(memory.threadShare()).toBeUndefined();
      expect(t.database.threadShare()).toMatchObject({ target: { kind: 'sqlite' } });
    } finally {
      await memory.close();
    }
  });
});
