import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabaseInThread } from '../../src/storage/database.js';
import { ThreadWriteLock } from '../../src/storage/thread-write-lock.js';
import { useTestDatabase } from '../support/test-database.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ThreadWriteLock', () => {
  it('is taken at once when free and handed over in arrival order', async () => {
    const mine = new ThreadWriteLock();
    const other = new ThreadWriteLock(mine.buffer);
    expect(mine.acquire()).toBeUndefined();
    expect(mine.busy()).toBe(true);
    const order: string[] = [];
    const second = other.acquire()!.then(() => order.push('second'));
    const third = mine.acquire()!.then(() => order.push('third'));
    await sleep(10);
    expect(order).toEqual([]);
    mine.release();
    await second;
    expect(order).toEqual(['second']);
    other.release();
    await third;
    expect(order).toEqual(['second', 'third']);
    mine.release();
    expect(mine.busy()).toBe(false);
  });

  it('is waited for without blocking the event loop while another thread holds it', async () => {
    const lock = new ThreadWriteLock();
    // The other thread takes the lock, says so, holds it 150 ms (its own thread asleep), lets go.
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const cells = new Int32Array(workerData);
       const ticket = Atomics.add(cells, 0, 1);
       while (Atomics.load(cells, 1) !== ticket) Atomics.wait(cells, 1, Atomics.load(cells, 1));
       parentPort.postMessage('held');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
       Atomics.add(cells, 1, 1);
       Atomics.notify(cells, 1);`,
      { eval: true, workerData: lock.buffer },
    );
    await new Promise((resolve) => worker.once('message', resolve));
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    const started = performance.now();
    await lock.acquire();
    const waited = performance.now() - started;
    clearInterval(timer);
    lock.release();
    await worker.terminate();
    expect(waited).toBeGreaterThan(100);
    // Timers ran while this thread waited: the wait did not hold the event loop.
    expect(ticks).toBeGreaterThanOrEqual(3);
  });
});

describe('two connections to one SQLite file, taking turns through the thread lock', () => {
  const t = useTestDatabase('sqlite');

  it('a write waits for the other connection’s transaction without blocking the event loop; reads do not wait', async () => {
    await sql`create table turns (n integer not null)`.execute(t.database.db);
    const second = openDatabaseInThread(t.database.threadShare()!);
    try {
      let ticks = 0;
      const timer = setInterval(() => (ticks += 1), 10);
      let committed = 0;
      // The second connection writes and keeps its transaction open for 200 ms of timers.
      const holding = second.db.transaction().execute(async (trx) => {
        await sql`insert into turns (n) values (1)`.execute(trx);
        await sleep(200);
        committed = performance.now();
      });
      await sleep(20);
      const before = await sql<{ n: number }>`select count(*) as n from turns`.execute(t.database.db);
      const readDone = performance.now();
      const write = sql`insert into turns (n) values (2)`.execute(t.database.db).then(() => performance.now());
      const [wrote] = await Promise.all([write, holding]);
      clearInterval(timer);
      // Without the lock, this write would sleep in SQLite's busy handler on the event loop, the
      // other transaction could not go on, and the write would fail after busy_timeout (5 s).
      expect(wrote).toBeGreaterThanOrEqual(committed);
      expect(ticks).toBeGreaterThanOrEqual(5);
      // The read did not wait for the open write transaction, and saw only what was committed.
      expect(committed).toBeGreaterThan(0);
      expect(readDone).toBeLessThan(committed);
      expect(Number(before.rows[0]!.n)).toBe(0);
      const after = await sql<{ n: number }>`select count(*) as n from turns`.execute(t.database.db);
      expect(Number(after.rows[0]!.n)).toBe(2);
    } finally {
      await second.close();
    }
  });

  it('closing a connection waits for its transaction in flight, so the other connection can write after', async () => {
    await sql`create table closing (n integer not null)`.execute(t.database.db);
    const second = openDatabaseInThread(t.database.threadShare()!);
    const holding = second.db.transaction().execute(async (trx) => {
      await sql`insert into closing (n) values (1)`.execute(trx);
      await sleep(100);
      await sql`insert into closing (n) values (2)`.execute(trx);
    });
    await sleep(20);
    await Promise.all([second.close(), holding]);
    // Cut short, the transaction would have failed and left the thread lock held: this write would wait for ever.
    await sql`insert into closing (n) values (3)`.execute(t.database.db);
    const rows = await sql<{ n: number }>`select n from closing order by n`.execute(t.database.db);
    expect(rows.rows.map((r) => Number(r.n))).toEqual([1, 2, 3]);
  });

  it('is not offered for an in-memory database, which no other connection can reach', async () => {
    const { openDatabase } = await import('../../src/storage/database.js');
    const memory = await openDatabase({ kind: 'sqlite', path: ':memory:' });
    try {
      expect(memory.threadShare()).toBeUndefined();
      expect(t.database.threadShare()).toMatchObject({ target: { kind: 'sqlite' }, sqliteLock: expect.any(SharedArrayBuffer) });
    } finally {
      await memory.close();
    }
  });
});
