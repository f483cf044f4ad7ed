import fs from 'node:fs';
import { expect, it, vi } from 'vitest';
import { KyselyAnalyticsFoldStore } from '../../src/analytics/store/fold.kysely-store.js';
import { createAnalyticsModule } from '../../src/analytics/analytics.module.js';
import { planFold } from '../../src/analytics/fold/fold-plan.js';
import { HOUR_MS, type AnalyticsItem } from '../../src/analytics/model/counters.js';
import { FoldThread } from '../../src/analytics/fold/fold-thread.js';
import { describeOnEveryDatabase, useTestDatabase } from '../support/test-database.js';
import { TestClock } from '../support/test-clock.js';
import { backlogSize, clearAnalytics, fromScratch, generateItems, insertItems, itemRow, readAggregates } from './support/raw-items.js';

const BASE = Date.parse('2026-11-20T00:00:00Z');

describeOnEveryDatabase('analytics folded on the fold thread', (kind) => {
  const t = useTestDatabase(kind);

  // The thread's connection and this thread's, folding at once (on SQLite both write the analytics
  // file, whose writer they take turns on; on PostgreSQL the analytics advisory lock): while items
  // are inserted here, the thread and an in-process fold both fold, and each item counts once.
  it('folds every item once while this thread ingests and folds too, equal to a from-scratch recomputation', async () => {
    await clearAnalytics(t.database);
    const clock = new TestClock(BASE + 50 * HOUR_MS);
    const module = createAnalyticsModule({ database: t.database, clock, foldThread: true });
    const inline = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    try {
      const all: AnalyticsItem[] = [];
      let folded = 0;
      for (let round = 0; round < 5; round += 1) {
        const items = generateItems(400, 300 + round, round * 400, BASE);
        all.push(...items);
        const [, byThread, inHere] = await Promise.all([
          insertItems(t.database, items),
          module.services.analyticsService.catchUp(),
          inline.aggregateNext(97, planFold, clock.now()),
        ]);
        folded += byThread + (inHere ?? 0);
      }
      for (;;) {
        const n = await module.services.analyticsService.catchUp();
        folded += n;
        if (n === 0) break;
      }
      expect(folded).toBe(all.length);
      expect(await readAggregates(t.database)).toEqual(fromScratch(all));
      // Freshness comes from the caller's clock, as with an in-process fold.
      expect(await module.services.analyticsService.overview({})).toMatchObject({ dataFreshAsOf: new Date(clock.now()).toISOString() });
    } finally {
      await module.close();
    }
  }, 60_000);

  it('drains in batches of 1 000 where reads hold back no writer (PostgreSQL), else of 250 (SQLite)', async () => {
    await clearAnalytics(t.database);
    const drain = vi.spyOn(FoldThread.prototype, 'drain');
    const module = createAnalyticsModule({ database: t.database, clock: new TestClock(BASE), foldThread: true });
    try {
      await insertItems(t.database, generateItems(10, 5, 0, BASE));
      expect(await module.services.analyticsService.catchUp()).toBe(10);
      expect(drain.mock.calls.map(([batchSize]) => batchSize)).toEqual([kind === 'postgres' ? 1000 : 250]);
    } finally {
      drain.mockRestore();
      await module.close();
    }
  });

  /** 6 000 items and a fold-thread drain of them (given `stop`), once the thread has folded some. */
  async function drainUnderWay(seed: number, stop?: AbortSignal) {
    await clearAnalytics(t.database);
    const clock = new TestClock(BASE + 50 * HOUR_MS);
    const items = generateItems(6000, seed, 0, BASE);
    await insertItems(t.database, items);
    const module = createAnalyticsModule({ database: t.database, clock, foldThread: true });
    const drain = module.services.analyticsService.catchUp(stop);
    const done = async () => items.length - (await backlogSize(t.database));
    while ((await done()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    return { clock, items, module, drain, done };
  }

  it('stops a running drain at a batch boundary when closed: the database stays writable and the rest folds later, once', async () => {
    const { clock, items, module, drain, done } = await drainUnderWay(77);
    await module.close();
    const byThread = await drain;
    expect(byThread).toBe(await done());
    // Writable at once: a thread closed inside a transaction would have left the thread lock held.
    const more = generateItems(10, 78, 6000, BASE);
    await insertItems(t.database, more);
    const rest = await createAnalyticsModule({ database: t.database, clock }).services.analyticsService.catchUp();
    expect(byThread + rest).toBe(items.length + more.length);
    expect(await readAggregates(t.database)).toEqual(fromScratch([...items, ...more]));
  }, 60_000);

  it("ends a background run's drain at the thread's next batch boundary when the scheduler's signal aborts; the rest folds later, once", async () => {
    const halt = new AbortController();
    const { items, module, drain, done } = await drainUnderWay(79, halt.signal);
    try {
      halt.abort();
      const byThread = await drain;
      expect(byThread).toBe(await done());
      expect(byThread).toBeLessThan(items.length);
      // The thread stays usable: a request's catch-up (no signal) folds the rest.
      expect(byThread + (await module.services.analyticsService.catchUp())).toBe(items.length);
      expect(await readAggregates(t.database)).toEqual(fromScratch(items));
    } finally {
      await module.close();
    }
  }, 60_000);

  it('refuses to fold once closed, with an error that says so', async () => {
    const module = createAnalyticsModule({ database: t.database, clock: new TestClock(BASE), foldThread: true });
    expect(await module.services.analyticsService.catchUp()).toBe(0);
    await module.close();
    await expect(module.services.analyticsService.catchUp()).rejects.toThrow(/fold thread is closed/);
  });

  // The point of SQLite's analytics file (storage/sqlite-analytics-file.ts): the fold thread's
  // transactions never wait for the main file's writer, so a long write of ingestion does not stall
  // the fold, nor (the other way round) does a fold stall ingestion.
  it('folds while this thread holds a write transaction open on the feedback table (SQLite: two files, two writers)', async () => {
    if (kind !== 'sqlite') return;
    await clearAnalytics(t.database);
    const items = generateItems(500, 91, 0, BASE);
    await insertItems(t.database, items);
    const module = createAnalyticsModule({ database: t.database, clock: new TestClock(BASE + 50 * HOUR_MS), foldThread: true });
    try {
      const late = generateItems(1, 92, 500, BASE)[0]!;
      let folded = -1;
      await t.database.db.transaction().execute(async (trx) => {
        await trx.insertInto('feedback_items').values(itemRow(late)).execute();
        // The thread folds the 500 committed items while this transaction holds the main file's writer.
        folded = await module.services.analyticsService.catchUp();
      });
      expect(folded).toBe(500);
      expect(await module.services.analyticsService.catchUp()).toBe(1);
      expect(await readAggregates(t.database)).toEqual(fromScratch([...items, late]));
    } finally {
      await module.close();
    }
  }, 60_000);

  // common/thread-priority.ts: on Linux the fold thread alone runs at the nice value asked for; the
  // event loop and libuv's pool (which runs its file syncs) keep the default priority.
  it('runs the fold thread, and only it, at ANALYTICS_FOLD_NICE (Linux)', async () => {
    if (process.platform !== 'linux') return;
    const niceOf = () =>
      new Map(
        fs.readdirSync('/proc/self/task').map((tid) => {
          const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
          return [Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])] as const;
        }),
      );
    const before = niceOf();
    const module = createAnalyticsModule({ database: t.database, clock: new TestClock(BASE), foldThread: true, foldNice: 19 });
    try {
      await module.services.analyticsService.catchUp();
      const after = niceOf();
      const niced = [...after].filter(([tid, nice]) => nice === 19 && !before.has(tid));
      expect(niced).toHaveLength(1);
      expect(after.get(process.pid)).toBe(0);
      for (const [tid, nice] of after) if (before.has(tid)) expect({ tid, nice }).toEqual({ tid, nice: before.get(tid) });
      expect([...after].filter(([, nice]) => nice === 19)).toHaveLength(1);
    } finally {
      await module.close();
    }
  });
});
