import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';

/** The SQLite driver: commits answer only after an fdatasync of the WAL that began after them. */
describe('SQLite driver (fsync off the event loop)', () => {
  let dir: string;
  let current: DatabaseHandle | undefined;

  async function open(): Promise<{ handle: DatabaseHandle; file: string }> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-driver-'));
    const file = path.join(dir, 'db.sqlite');
    const handle = await openDatabase({ kind: 'sqlite', path: file });
    current = handle;
    await sql`create table t (id integer primary key, tag text not null)`.execute(handle.db);
    return { handle, file };
  }

  afterEach(async () => {
    vi.restoreAllMocks();
    await current?.close();
    current = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('resolves every write after a WAL sync that started once it had committed; concurrent commits share syncs', async () => {
    const { handle, file } = await open();
    const observer = new BetterSqlite3(file, { readonly: true });
    const count = () => (observer.prepare('select count(*) as n from t').get() as { n: number }).n;
    // Rows committed when each finished sync started.
    const synced: number[] = [];
    const original = fs.fdatasync;
    const spy = vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      const committedAtStart = count();
      original(fd, (error) => {
        if (!error) synced.push(committedAtStart);
        callback(error);
      });
    }) as typeof fs.fdatasync);
    const writes = Array.from({ length: 40 }, async (_, i) => {
      await handle.db
        .insertInto('t' as never)
        .values({ tag: `row-${i}` } as never)
        .execute();
      const id = (observer.prepare('select id from t where tag = ?').get(`row-${i}`) as { id: number }).id;
      // Rows get ids 1, 2, … in commit order: a sync that saw at least `id` rows covered this one.
      expect(synced.some((n) => n >= id)).toBe(true);
    });
    await Promise.all(writes);
    expect(count()).toBe(40);
    expect(spy.mock.calls.length).toBeGreaterThan(0);
    expect(spy.mock.calls.length).toBeLessThan(40);
    observer.close();
  });

  it('keeps transactions whole and apart while commits wait for their sync, and a failed one leaves nothing', async () => {
    const { handle } = await open();
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        handle.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('t' as never)
            .values({ tag: `a-${i}` } as never)
            .execute();
          await new Promise((resolve) => setImmediate(resolve));
          const mine = await sql<{ n: number }>`select count(*) as n from t where tag like ${`%-${i}`}`.execute(trx);
          if (i % 4 === 3) throw new Error(`abort ${i}`);
          await trx
            .insertInto('t' as never)
            .values({ tag: `b-${i}` } as never)
            .execute();
          return mine.rows[0]!.n;
        }),
      ),
    );
    // Inside each transaction only its own first row was visible under its tag.
    for (const [i, r] of results.entries()) {
      if (i % 4 === 3) expect(r.status).toBe('rejected');
      else expect(r).toEqual({ status: 'fulfilled', value: 1 });
    }
    const rows = await sql<{ tag: string }>`select tag from t order by tag`.execute(handle.db);
    const expected = Array.from({ length: 12 }, (_, i) => i)
      .filter((i) => i % 4 !== 3)
      .flatMap((i) => [`a-${i}`, `b-${i}`])
      .sort();
    expect(rows.rows.map((r) => r.tag)).toEqual(expected);
  });

  it('a raw transaction (sqliteTransaction) waits for an open Kysely transaction, rolls back whole on error, and resolves after its sync', async () => {
    const { handle, file } = await open();
    const observer = new BetterSqlite3(file, { readonly: true });
    const count = () => (observer.prepare('select count(*) as n from t').get() as { n: number }).n;
    const syncsSawRows: number[] = [];
    const original = fs.fdatasync;
    vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      syncsSawRows.push(count());
      original(fd, callback);
    }) as typeof fs.fdatasync);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const kysely = handle.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('t' as never)
        .values({ tag: 'kysely' } as never)
        .execute();
      await held;
      order.push('kysely commits');
    });
    const raw = handle.sqliteTransaction!((connection) => {
      order.push('raw runs');
      connection.prepare('insert into t (tag) values (?)').run('raw');
      return connection.prepare('select count(*) as n from t').get() as { n: number };
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    release();
    await kysely;
    expect((await raw).n).toBe(2);
    expect(order).toEqual(['kysely commits', 'raw runs']);
    expect(syncsSawRows.some((n) => n === 2)).toBe(true);
    await expect(
      handle.sqliteTransaction!((connection) => {
        connection.prepare('insert into t (tag) values (?)').run('lost');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(count()).toBe(2);
    observer.close();
  });

  it('a pinned connection goes on after its own COMMIT, and closing checkpoints and removes the WAL', async () => {
    const { handle, file } = await open();
    await handle.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      await sql`insert into t (tag) values ('pinned-1')`.execute(conn);
      await sql`commit`.execute(conn);
      await Promise.all([
        sql`insert into t (tag) values ('pinned-2')`.execute(conn),
        handle.db
          .insertInto('t' as never)
          .values({ tag: 'other' } as never)
          .execute(),
      ]);
    });
    await handle.close();
    current = undefined;
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const check = new BetterSqlite3(file, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((check.prepare('select count(*) as n from t').get() as { n: number }).n).toBe(3);
    check.close();
  });

  it("syncs the analytics file's WAL too after a commit that wrote an analytics table, and only then", async () => {
    const { handle } = await open();
    // The analytics file (storage/sqlite/sqlite-analytics-file.ts) is attached as `analytics`; its tables are named analytics_*.
    await sql`create table analytics.analytics_probe (id integer primary key)`.execute(handle.db);
    const synced: string[] = [];
    const original = fs.fdatasync;
    vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      synced.push(path.basename(fs.readlinkSync(`/proc/self/fd/${fd}`)));
      original(fd, callback);
    }) as typeof fs.fdatasync);
    await handle.db
      .insertInto('t' as never)
      .values({ tag: 'feedback only' } as never)
      .execute();
    expect(synced).toEqual(['db.sqlite-wal']);
    synced.length = 0;
    // An erasure's shape: one transaction deleting from both files; answered only once both WALs are on disk.
    await handle.db.transaction().execute(async (trx) => {
      await sql`insert into t (tag) values ('both')`.execute(trx);
      await sql`insert into analytics_probe (id) values (1)`.execute(trx);
    });
    expect(synced.sort()).toEqual(['db.sqlite-analytics-wal', 'db.sqlite-wal']);
  });

  // The analytics fold thread reads feedback in transactions that follow one another closely: while
  // one is open, a plain (PASSIVE) checkpoint cannot let the next commit start the WAL again, and
  // the catch-up past 32 MB ran after every commit while the WAL kept growing. The catch-up waits
  // for the reader's snapshot to end (RESTART), so the WAL starts again whatever the reader does.
  it('keeps the WAL near its catch-up size while another connection keeps reading on older snapshots', async () => {
    const { handle, file } = await open();
    const reader = new BetterSqlite3(file, { readonly: true });
    const read = () => {
      if (reader.inTransaction) reader.exec('commit');
      reader.exec('begin');
      reader.prepare('select count(*) from t').get();
    };
    read();
    const rereads = setInterval(read, 5);
    let largest = 0;
    try {
      const tag = 'x'.repeat(100_000);
      for (let i = 0; i < 1000; i += 1) {
        await handle.db
          .insertInto('t' as never)
          .values({ tag: `${i}${tag}` } as never)
          .execute();
        largest = Math.max(largest, fs.statSync(`${file}-wal`).size);
        // A turn for the reader's timer, as the fold thread runs beside the event loop.
        if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } finally {
      clearInterval(rereads);
      if (reader.inTransaction) reader.exec('commit');
      reader.close();
    }
    // 100 MB written: without restarts the WAL would hold all of it.
    expect(largest).toBeGreaterThan(32 * 1024 * 1024);
    expect(largest).toBeLessThan(48 * 1024 * 1024);
  }, 60_000);

  it('opens an in-memory database (:memory:) without creating files or syncing', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-driver-'));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const handle = await openDatabase({ kind: 'sqlite', path: ':memory:' });
      current = handle;
      const syncs = vi.spyOn(fs, 'fdatasync');
      await sql`create table t (id integer primary key)`.execute(handle.db);
      await handle.db.transaction().execute(async (trx) => {
        await sql`insert into t (id) values (1), (2)`.execute(trx);
      });
      const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(handle.db);
      expect(rows[0]!.n).toBe(2);
      expect(syncs).not.toHaveBeenCalled();
      await handle.close();
      current = undefined;
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });
});
