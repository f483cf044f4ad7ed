import { beforeEach, describe, expect, it } from 'vitest';
import { planFold } from '../../src/analytics/fold/fold-plan.js';
import { HOUR_MS, type AnalyticsItem } from '../../src/analytics/model/counters.js';
import { FakeAnalyticsFoldStore } from '../../src/analytics/store/fake-fold.store.js';
import { FakeAnalyticsReadsStore } from '../../src/analytics/store/fake-reads.store.js';
import { KyselyAnalyticsFoldStore } from '../../src/analytics/store/fold.kysely-store.js';
import type { AnalyticsFoldStore } from '../../src/analytics/store/fold.store.js';
import { KyselyAnalyticsReadsStore } from '../../src/analytics/store/reads.kysely-store.js';
import type { AnalyticsReadsStore, Slice } from '../../src/analytics/store/reads.store.js';
import { ANALYTICS_LOCK, transactionLock } from '../../src/storage/advisory-locks.js';
import { describeOnEveryDatabase, useTestDatabase } from '../support/test-database.js';
import { analyticsItem, clearAnalytics, insertItems } from '../analytics/support/raw-items.js';

// The fold store's contract: the same cases against the Kysely store on every database (items
// stored as feedback rows, received at their event time) and against its in-memory fake (items
// added to its backlog), each checked through the reads store the fold writes to.
const H0 = Date.parse('2026-11-20T00:00:00Z');

const item = (id: string, over: Partial<AnalyticsItem>) => analyticsItem(id, H0, { sessionId: 's1', deviceType: 'mobile', ...over });
const all = (fromHour: number, toHour: number): Slice => ({ dimension: '', value: '', fromHour, toHour });

/** A fold store, the reads that see what it folds, and the way to give it a backlog. */
interface FoldWorld {
  folds: AnalyticsFoldStore;
  reads: AnalyticsReadsStore;
  add(items: readonly AnalyticsItem[]): Promise<void>;
}

/**
 * Three searches over two sessions and two queries, whose items span hours: a click a minute after
 * its impression, a search never clicked, and a late click an hour after its search.
 */
const SEARCHES = (): AnalyticsItem[] => [
  item('A1', { queryId: 'q1', queryText: 'Shoes' }),
  item('A2', { queryId: 'q1', userAction: 'click', eventTime: H0 + 60_000 }),
  item('B1', { queryId: 'q2', resultId: 'r2', position: 2, eventTime: H0 + HOUR_MS }),
  item('C1', { queryId: 'q3', sessionId: 's2', queryHash: 'socks', deviceType: 'desktop', position: 3, eventTime: H0 + 120_000 }),
  item('C2', {
    queryId: 'q3',
    sessionId: 's2',
    queryHash: 'socks',
    deviceType: 'desktop',
    position: 3,
    userAction: 'click',
    eventTime: H0 + HOUR_MS + 300_000,
  }),
];

/** What the reads answer over the first three hours: per hour, per query, per result, texts. */
async function figures(reads: AnalyticsReadsStore) {
  const slice = all(H0, H0 + 3 * HOUR_MS);
  return {
    hours: (await reads.totalHours(slice)).map(({ hour, counters: c, queries }) => ({
      hour: (hour - H0) / HOUR_MS,
      searches: c.searches,
      sessions: c.sessions,
      abandoned: c.abandoned,
      impressions: c.impressions,
      clicks: c.clicks,
      firstClicks: c.first_clicks,
      queries,
    })),
    queries: (await reads.queryTotals(slice, { minSearches: 0 }))
      .map((r) => [r.queryHash, r.counters.searches, r.counters.clicks])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    mobileSearches: await reads.totalSearches({ ...slice, dimension: 'deviceType', value: 'mobile' }),
    results: await reads.results('shoes', slice.fromHour, slice.toHour),
    texts: [...(await reads.texts(['shoes', 'socks']))],
  };
}

function foldContract(world: () => FoldWorld): void {
  let w: FoldWorld;
  beforeEach(() => {
    w = world();
  });

  it('folds at most `limit` items per call, counts what waits, and records freshness only at the end of the backlog', async () => {
    await w.add([item('A3', {}), item('A1', {}), item('A2', { userAction: 'click' })]);
    expect(await w.folds.backlogSize()).toBe(3);
    expect(await w.folds.aggregateNext(2, planFold, 111)).toBe(2);
    expect(await w.folds.backlogSize()).toBe(1);
    expect(await w.reads.freshAsOf()).toBeNull();
    expect(await w.folds.aggregateNext(2, planFold, 222)).toBe(1);
    expect(await w.folds.backlogSize()).toBe(0);
    expect(await w.reads.freshAsOf()).toBe(222);
    expect(await w.folds.aggregateNext(2, planFold, 333)).toBe(0);
    expect(await w.reads.freshAsOf()).toBe(333);
    const [hour] = await w.reads.totalHours(all(H0, H0 + HOUR_MS));
    expect(hour).toMatchObject({ hour: H0, counters: { searches: 1, impressions: 2, clicks: 1, abandoned: 0, first_clicks: 1 } });
  });

  it.each([1, 2, 5])('gives the same figures whatever the batching (batches of %i), the backlog counting down', async (limit) => {
    const items = SEARCHES();
    await w.add(items);
    for (let left = items.length; left > 0; left -= limit) {
      expect(await w.folds.backlogSize()).toBe(left);
      expect(await w.folds.aggregateNext(limit, planFold, 1)).toBe(Math.min(limit, left));
    }
    expect(await w.folds.backlogSize()).toBe(0);
    expect(await figures(w.reads)).toEqual({
      hours: [
        { hour: 0, searches: 2, sessions: 2, abandoned: 0, impressions: 2, clicks: 1, firstClicks: 2, queries: 2 },
        // q2, never clicked, is abandoned; q3's late click lands in its own hour, its first click in its search's.
        { hour: 1, searches: 1, sessions: 0, abandoned: 1, impressions: 1, clicks: 1, firstClicks: 0, queries: 2 },
      ],
      queries: [
        ['shoes', 2, 1],
        ['socks', 1, 1],
      ],
      mobileSearches: 2,
      results: [
        { resultId: 'r1', position: 1, impressions: 1, clicks: 1 },
        { resultId: 'r2', position: 2, impressions: 1, clicks: 0 },
      ],
      texts: [['shoes', 'Shoes']],
    });
  });

  it('prunes, at most `limit` at a time, only the states whose latest item was received before the cutoff', async () => {
    // Search q1 (session A) received in hour 0 only; search q2 (session B) also in hour 2.
    await w.add([
      item('P1', { sessionId: 'A', queryId: 'q1' }),
      item('P2', { sessionId: 'B', queryId: 'q2', queryHash: 'socks' }),
      item('P3', { sessionId: 'B', queryId: 'q2', queryHash: 'socks', userAction: 'click', eventTime: H0 + 2 * HOUR_MS }),
    ]);
    expect(await w.folds.aggregateNext(10, planFold, 1)).toBe(3);
    const folded = await figures(w.reads);
    // Session A's search, session and (session, query) states go; session B's stay.
    expect(await w.folds.pruneEntities(H0 + HOUR_MS, 2)).toBe(2);
    expect(await w.folds.pruneEntities(H0 + HOUR_MS, 2)).toBe(1);
    expect(await w.folds.pruneEntities(H0 + HOUR_MS, 2)).toBe(0);
    // The aggregates stay as they were: pruning forgets states, not what was counted.
    expect(await figures(w.reads)).toEqual(folded);
    // A late click of each search in hour 2: q1's state is gone, so its click starts a new search
    // (and session); q2's still counts into its own search.
    await w.add([
      item('P4', { sessionId: 'A', queryId: 'q1', userAction: 'click', eventTime: H0 + 2 * HOUR_MS + 60_000 }),
      item('P5', { sessionId: 'B', queryId: 'q2', queryHash: 'socks', userAction: 'click', eventTime: H0 + 2 * HOUR_MS + 60_000 }),
    ]);
    expect(await w.folds.aggregateNext(10, planFold, 1)).toBe(2);
    const { hours, queries, mobileSearches } = await figures(w.reads);
    expect({ hours, queries, mobileSearches }).toEqual({
      hours: [
        // Without the prune q1 would not be abandoned, and hour 2 would count no search nor session.
        { hour: 0, searches: 2, sessions: 2, abandoned: 1, impressions: 2, clicks: 0, firstClicks: 1, queries: 2 },
        { hour: 2, searches: 1, sessions: 1, abandoned: 0, impressions: 0, clicks: 3, firstClicks: 1, queries: 2 },
      ],
      queries: [
        ['shoes', 2, 1],
        ['socks', 1, 2],
      ],
      mobileSearches: 3,
    });
  });
}

describeOnEveryDatabase('analytics fold store contract: Kysely store', (kind) => {
  const t = useTestDatabase(kind);
  beforeEach(async () => clearAnalytics(t.database));
  foldContract(() => ({
    folds: new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities),
    reads: new KyselyAnalyticsReadsStore(t.database.db, t.database.capabilities),
    add: (items) => insertItems(t.database, items),
  }));

  // Database-specific: the fake has one caller, so no other instance can hold its lock.
  it('answers null while another instance holds the analytics lock (PostgreSQL; SQLite serialises writers)', async () => {
    const folds = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    await insertItems(t.database, [item('B1', {})]);
    if (!t.database.capabilities.supportsAdvisoryLocks) return;
    await t.database.db.transaction().execute(async (trx) => {
      await transactionLock(trx, ANALYTICS_LOCK);
      expect(await folds.aggregateNext(10, planFold, 1)).toBeNull();
      expect(await folds.pruneEntities(Date.now(), 10)).toBeNull();
    });
    expect(await folds.aggregateNext(10, planFold, 1)).toBe(1);
  });
});

describe('analytics fold store contract: in-memory fake', () => {
  foldContract(() => {
    const reads = new FakeAnalyticsReadsStore();
    const folds = new FakeAnalyticsFoldStore(reads);
    return { folds, reads, add: async (items) => folds.add(items) };
  });
});
