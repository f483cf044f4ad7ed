import { sql, type Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import { KyselyAnalyticsFoldStore } from '../../src/analytics/store/fold.kysely-store.js';
import { planFold } from '../../src/analytics/fold/fold-plan.js';
import { HOUR_MS, type AnalyticsItem } from '../../src/analytics/model/counters.js';
import { type DatabaseHandle } from '../../src/storage/database.js';
import type { Database } from '../../src/storage/schema.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { atMigration } from '../support/migration-database.js';
import { describeOnEveryDatabase, useTestDatabase } from '../support/test-database.js';
import { analyticsItem, backlogSize, clearAnalytics, fromScratch, insertItems, itemRow, readAggregates } from './support/raw-items.js';

/**
 * Each database's backlog is a position, not a per-item flag, and each can be fooled in its own way.
 *
 * SQLite's backlog is a cursor over rowids (migration 0085). It holds only while a new row's rowid
 * is above every folded one, which deleting the newest rows breaks: SQLite then gives the next rows
 * the freed rowids. Each case deletes the newest rows, checks that the rowids were indeed given
 * again (else the case proves nothing), and that every item is still folded exactly once.
 */

const BASE = Date.parse('2026-11-20T00:00:00Z');
const item = (id: string, over: Partial<AnalyticsItem> = {}) =>
  analyticsItem(id, BASE, { sessionId: `s-${id}`, queryId: `q-${id}`, deviceType: 'mobile', ...over });

const rowids = async (database: DatabaseHandle) =>
  (await sql<{ id: string; rowid: number }>`select id, rowid from feedback_items order by rowid`.execute(database.db)).rows.map((r) => [
    r.id,
    Number(r.rowid),
  ]);

describe('analytics backlog on sqlite: the cursor after the newest rows are deleted', () => {
  const t = useTestDatabase('sqlite');

  /** A fresh analytics state, `items` stored and folded (each test then deletes some and goes on). */
  async function foldedFirst(items: AnalyticsItem[]): Promise<KyselyAnalyticsFoldStore> {
    await clearAnalytics(t.database);
    const folds = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    await insertItems(t.database, items);
    expect(await folds.aggregateNext(100, planFold, 0)).toBe(items.length);
    return folds;
  }

  it('folds the rows that take the rowids of an erased newest session, once', async () => {
    const first = [item('A1'), item('A2'), item('A3', { sessionId: 'erased' }), item('A4', { sessionId: 'erased' })];
    const folds = await foldedFirst(first);
    await t.database.db.deleteFrom('feedback_items').where('session_id', '=', 'erased').execute();
    const later = [item('B1'), item('B2', { userAction: 'click' }), item('B3')];
    await insertItems(t.database, later);
    // B1 and B2 took A3's and A4's rowids, below the cursor's 4.
    expect(await rowids(t.database)).toEqual([
      ['A1', 1],
      ['A2', 2],
      ['B1', 3],
      ['B2', 4],
      ['B3', 5],
    ]);
    expect(await backlogSize(t.database)).toBe(3);
    expect(await folds.aggregateNext(100, planFold, 0)).toBe(3);
    expect(await folds.aggregateNext(100, planFold, 0)).toBe(0);
    // The erased items had been folded: the aggregates keep their counts, as after any erasure.
    expect(await readAggregates(t.database)).toEqual(fromScratch([...first, ...later]));
  });

  it('folds the rows stored after retention emptied the table, whose rowids start again at 1', async () => {
    const old = [item('A1'), item('A2'), item('A3')];
    const folds = await foldedFirst(old);
    await t.database.db
      .deleteFrom('feedback_items')
      .where('received_at', '<', BASE + HOUR_MS)
      .execute();
    const fresh = [item('C1'), item('C2')];
    await insertItems(t.database, fresh);
    expect((await rowids(t.database)).map((r) => r[1])).toEqual([1, 2]);
    expect(await folds.aggregateNext(100, planFold, 0)).toBe(2);
    expect(await readAggregates(t.database)).toEqual(fromScratch([...old, ...fresh]));
  });

  it('leaves the cursor alone when older rows are deleted (retention): nothing is folded twice', async () => {
    const all = [item('A1'), item('A2'), item('A3')];
    const folds = await foldedFirst(all);
    await t.database.db.deleteFrom('feedback_items').where('id', 'in', ['A1', 'A2']).execute();
    expect(
      await sql`select * from feedback_rowid_rewinds where seq > (select rewinds_through from analytics_progress)`.execute(t.database.db),
    ).toMatchObject({
      rows: [],
    });
    expect(await folds.aggregateNext(100, planFold, 0)).toBe(0);
    expect(await readAggregates(t.database)).toEqual(fromScratch(all));
  });
});

/**
 * SQLite reads a batch before the fold's transaction (readsHoldBackWriters), so a deletion or another
 * fold may land between the two: the fold must notice and fold again from what is stored.
 */
describe('analytics backlog on sqlite: a batch read before the fold', () => {
  const t = useTestDatabase('sqlite');

  /** Counts the read-first batches found stale (the fold then folds the batch again, in one transaction). */
  function countStale(folds: KyselyAnalyticsFoldStore) {
    const inside = folds as unknown as { foldBatch: (...a: unknown[]) => Promise<unknown> };
    const fold = inside.foldBatch.bind(folds);
    const stale = { count: 0 };
    inside.foldBatch = async (...a: unknown[]) => {
      try {
        return await fold(...a);
      } catch (error) {
        stale.count += 1;
        throw error;
      }
    };
    return stale;
  }

  it('does not fold items deleted between its read and its write (an erased session stays erased)', async () => {
    await clearAnalytics(t.database);
    const folds = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    const stale = countStale(folds);
    const kept = [item('K1'), item('K2', { userAction: 'click' })];
    const erased = [item('X1', { sessionId: 'erased' }), item('X2', { sessionId: 'erased', userAction: 'click' })];
    await insertItems(t.database, [...kept, ...erased]);
    // Queued behind the fold's read transaction, ahead of its write transaction.
    const [folded] = await Promise.all([
      folds.aggregateNext(100, planFold, 0),
      t.database.db.deleteFrom('feedback_items').where('session_id', '=', 'erased').execute(),
    ]);
    expect(stale.count).toBe(1);
    expect(folded).toBe(2);
    expect(await readAggregates(t.database)).toEqual(fromScratch(kept));
    const states = await t.database.db.selectFrom('analytics_entities').select('key').execute();
    expect(states.filter((s) => s.key.includes('erased'))).toEqual([]);
  });

  it('two folds that read the same batch fold it once', async () => {
    await clearAnalytics(t.database);
    const first = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    const second = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    const stale = countStale(second);
    const items = [item('F1'), item('F2', { userAction: 'click' }), item('F3')];
    await insertItems(t.database, items);
    const [a, b] = await Promise.all([first.aggregateNext(100, planFold, 0), second.aggregateNext(100, planFold, 0)]);
    expect(stale.count).toBe(1);
    expect([a, b]).toEqual([3, 0]);
    expect(await readAggregates(t.database)).toEqual(fromScratch(items));
  });
});

/**
 * PostgreSQL's backlog is windows between snapshots over each row's inserting transaction (migration
 * 0095). Writers there commit out of order: a transaction that took its id first may commit last.
 */
describe('analytics backlog on postgres: windows between snapshots', () => {
  const t = useTestDatabase('postgres');

  /** Runs `hold` inside an open transaction that first ran `start`; resolves once `start` is done. */
  function openTransaction(start: (trx: Transaction<Database>) => Promise<unknown>) {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const ready = new Promise<void>((r) => (started = r));
    const done = t.database.db.transaction().execute(async (trx) => {
      await start(trx);
      started();
      await released;
    });
    return { ready, commit: async () => (release(), done) };
  }

  it('folds a transaction that commits after later ones, once, in the first window where it has committed', async () => {
    await clearAnalytics(t.database);
    const folds = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    const early = [item('A1'), item('A2', { userAction: 'click' })];
    const late = [item('B1'), item('B2', { userAction: 'click' }), item('B3')];
    const writer = openTransaction((trx) => trx.insertInto('feedback_items').values(early.map(itemRow)).execute());
    await writer.ready;
    await insertItems(t.database, late);
    expect(await folds.aggregateNext(100, planFold, 0)).toBe(3);
    await writer.commit();
    // The early transaction's id is below the late one's (else the case proves nothing).
    const xids = await sql<{ id: string; xid: string }>`select id, analytics_xid::text as xid from feedback_items order by id`.execute(
      t.database.db,
    );
    const xidOf = (id: string) => BigInt(xids.rows.find((r) => r.id === id)!.xid);
    expect(xidOf('A1') < xidOf('B1')).toBe(true);
    expect(await backlogSize(t.database)).toBe(2);
    expect(await folds.aggregateNext(100, planFold, 0)).toBe(2);
    expect(await folds.aggregateNext(100, planFold, 0)).toBe(0);
    expect(await readAggregates(t.database)).toEqual(fromScratch([...early, ...late]));
  });

  it('is not held back by a long transaction that writes no feedback (an xmin horizon would be)', async () => {
    await clearAnalytics(t.database);
    const folds = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    // An id taken and held, as by any writer elsewhere on the server.
    const bystander = openTransaction((trx) => sql`select pg_current_xact_id()`.execute(trx));
    await bystander.ready;
    const items = [item('C1'), item('C2', { userAction: 'click' })];
    await insertItems(t.database, items);
    expect(await folds.aggregateNext(100, planFold, 0)).toBe(2);
    await bystander.commit();
    expect(await folds.aggregateNext(100, planFold, 0)).toBe(0);
    expect(await readAggregates(t.database)).toEqual(fromScratch(items));
  });

  it('takes a window in batches of `limit` in (transaction, id) order, and counts what is left', async () => {
    await clearAnalytics(t.database);
    const folds = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    const items = Array.from({ length: 7 }, (_, i) => item(`D${i}`, { userAction: i % 3 === 0 ? 'click' : 'impression' }));
    await insertItems(t.database, items.slice(0, 4));
    await insertItems(t.database, items.slice(4));
    expect(await folds.aggregateNext(3, planFold, 0)).toBe(3);
    expect(await backlogSize(t.database)).toBe(4);
    // Stored after the window opened: in the next window, not this one.
    const after = [item('E1')];
    await insertItems(t.database, after);
    expect(await backlogSize(t.database)).toBe(5);
    expect(await folds.aggregateNext(3, planFold, 0)).toBe(3);
    expect(await folds.aggregateNext(3, planFold, 0)).toBe(2);
    expect(await backlogSize(t.database)).toBe(0);
    expect(await readAggregates(t.database)).toEqual(fromScratch([...items, ...after]));
  });
});

describeOnEveryDatabase('migration 0085 (the analytics cursor on SQLite)', (kind) => {
  it('folds exactly the items the flag left unfolded, wherever they are in rowid order; down flags what the cursor passed', async () => {
    await atMigration(kind, '0075-analytics-results', async (db, migrator) => {
      // Stored in this order; the flag folded by id, so D1 (stored last, smallest id) is folded and B2 is not.
      const stored = [item('B1'), item('B2'), item('C1'), item('D1'), item('E1')];
      const folded = new Set(['B1', 'D1']);
      for (const it of stored)
        await db.db
          .insertInto('feedback_items')
          .values({ ...itemRow(it), analytics_done: folded.has(it.id) ? 1 : 0 } as never)
          .execute();
      await migrateToLatest(db);
      const folds = new KyselyAnalyticsFoldStore(db.db, db.capabilities);
      expect(await folds.backlogSize()).toBe(3);
      expect(await folds.aggregateNext(100, planFold, 0)).toBe(3);
      expect(await readAggregates(db)).toEqual(fromScratch(stored.filter((i) => !folded.has(i.id))));

      expect((await migrator.migrateTo('0075-analytics-results')).error).toBeUndefined();
      const flags = await db.db.selectFrom('feedback_items').select(['id', 'analytics_done']).orderBy('id').execute();
      expect(flags.every((r) => r.analytics_done === 1)).toBe(true);
    });
  });
});
