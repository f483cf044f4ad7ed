import { beforeEach, describe, expect, it } from 'vitest';
import { planFold } from '../../src/analytics/fold/fold-plan.js';
import { HOUR_MS, type AnalyticsItem } from '../../src/analytics/model/counters.js';
import { FakeAnalyticsReadsStore } from '../../src/analytics/store/fake-reads.store.js';
import { KyselyAnalyticsFoldStore } from '../../src/analytics/store/fold.kysely-store.js';
import { KyselyAnalyticsReadsStore } from '../../src/analytics/store/reads.kysely-store.js';
import type { AnalyticsReadsStore, QueryCounters, Slice } from '../../src/analytics/store/reads.store.js';
import { describeOnEveryDatabase, useTestDatabase } from '../support/test-database.js';
import { analyticsItem, clearAnalytics, insertItems } from '../analytics/support/raw-items.js';

// The reads store's contract: the same cases against the Kysely store on every database (data
// folded by the fold store from stored feedback rows) and against its in-memory fake (the same
// items folded into its hour rows), so the fake the service's tests use cannot drift.
const H0 = Date.parse('2026-11-20T00:00:00Z');
const DAY = 24 * HOUR_MS;

const item = (id: string, over: Partial<AnalyticsItem>) => analyticsItem(id, H0, { sessionId: 's1', deviceType: 'mobile', ...over });

const all = (fromHour: number, toHour: number): Slice => ({ dimension: '', value: '', fromHour, toHour });

/** A reads store and the way to give it data: fold these items (the fold reaching the end at `startedAt`). */
interface ReadsWorld {
  reads: AnalyticsReadsStore;
  fold(items: readonly AnalyticsItem[], startedAt?: number): Promise<void>;
}

/** 3 queries, a search every 7 hours over 70 days before H0 (a mobile one every 3rd, every other one clicked): every span and edge has rows. */
function spreadItems(): AnalyticsItem[] {
  const items: AnalyticsItem[] = [];
  for (let i = 0; i < 240; i += 1) {
    const at = H0 - 70 * DAY + i * 7 * HOUR_MS + 60_000;
    const hash = ['shoes', 'socks', 'hats'][i % 3]!;
    const search = { queryId: `w${i}`, sessionId: `s${i % 11}`, queryHash: hash };
    items.push(item(`W${String(i).padStart(4, '0')}a`, { ...search, eventTime: at, deviceType: i % 3 === 0 ? 'mobile' : 'desktop' }));
    if (i % 2 === 0) items.push(item(`W${String(i).padStart(4, '0')}b`, { ...search, eventTime: at + 1000, userAction: 'click' }));
  }
  return items;
}

/** The fields every reader of queryTotals relies on, sorted (sums of doubles rounded). */
const totalsOf = (rows: QueryCounters[]) =>
  rows
    .map((r) => [r.queryHash, r.rows, r.counters.searches, r.counters.clicks, r.counters.impressions, r.counters.abandoned])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

function readsContract(world: () => ReadsWorld): void {
  let w: ReadsWorld;
  beforeEach(async () => {
    w = world();
  });

  it('reads slices: hours, dimension values, per-query sums with minSearches or named hashes, distinct queries', async () => {
    await w.fold([
      item('C1', { queryId: 'q1', queryHash: 'shoes' }),
      item('C2', { queryId: 'q2', queryHash: 'shoes', eventTime: H0 + HOUR_MS + 5, deviceType: 'desktop' }),
      item('C3', { queryId: 'q3', queryHash: 'socks', eventTime: H0 + 2 * HOUR_MS }),
    ]);
    const store = w.reads;
    expect((await store.totalHours(all(H0, H0 + 3 * HOUR_MS))).map((h) => [h.hour - H0, h.counters.searches, h.queries])).toEqual([
      [0, 1, 1],
      [HOUR_MS, 1, 1],
      [2 * HOUR_MS, 1, 1],
    ]);
    expect((await store.totalHours(all(H0 + HOUR_MS, H0 + 2 * HOUR_MS))).map((h) => h.hour - H0)).toEqual([HOUR_MS]);
    const mobile = await store.totalHours({ dimension: 'deviceType', value: 'mobile', fromHour: H0, toHour: H0 + 3 * HOUR_MS });
    expect(mobile.map((h) => h.hour - H0)).toEqual([0, 2 * HOUR_MS]);
    expect(await store.totalSearches(all(H0, H0 + 3 * HOUR_MS))).toBe(3);
    expect(await store.totalSearches({ dimension: 'deviceType', value: 'desktop', fromHour: H0, toHour: H0 + 3 * HOUR_MS })).toBe(1);
    const sums = (rows: { queryHash: string; counters: { searches: number } }[]) =>
      rows.map((r) => [r.queryHash, r.counters.searches]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(sums(await store.queryTotals(all(H0, H0 + 3 * HOUR_MS), { minSearches: 0 }))).toEqual([
      ['shoes', 2],
      ['socks', 1],
    ]);
    expect(sums(await store.queryTotals(all(H0, H0 + 3 * HOUR_MS), { minSearches: 2 }))).toEqual([['shoes', 2]]);
    expect(sums(await store.queryTotals(all(H0, H0 + 3 * HOUR_MS), { minSearches: 5, hashes: ['socks'] }))).toEqual([['socks', 1]]);
    expect(await store.queryTotals(all(H0, H0 + 3 * HOUR_MS), { minSearches: 0, hashes: [] })).toEqual([]);
    expect((await store.queryHours(all(H0, H0 + 3 * HOUR_MS), ['shoes'])).map((h) => [h.queryHash, h.hour - H0])).toEqual([
      ['shoes', 0],
      ['shoes', HOUR_MS],
    ]);
    expect((await store.searchTrends(all(H0, H0 + 3 * HOUR_MS), ['shoes'], HOUR_MS)).sort((a, b) => a.bucket - b.bucket)).toEqual([
      { queryHash: 'shoes', bucket: H0, searches: 1 },
      { queryHash: 'shoes', bucket: H0 + HOUR_MS, searches: 1 },
    ]);
    expect(await store.searchTrends(all(H0, H0 + 3 * HOUR_MS), ['shoes', 'socks'], DAY)).toHaveLength(2);
    expect(await store.distinctQueries(all(H0, H0 + 3 * HOUR_MS))).toBe(2);
    expect(await store.distinctQueries(all(H0 + HOUR_MS, H0 + 2 * HOUR_MS))).toBe(1);
    expect(await store.knows('shoes')).toBe(true);
    expect(await store.knows('hats')).toBe(false);
  });

  it('results per result and position; the display text of the earliest item id wins whatever the fold order', async () => {
    await w.fold([
      item('D5', { queryText: 'later text', position: 2 }),
      item('D7', { userAction: 'click', position: 2 }),
      item('D6', { resultId: 'r2', position: 1 }),
    ]);
    await w.fold([item('D1', { queryId: 'q9', queryText: 'Running Shoes' })]);
    expect(await w.reads.results('shoes', H0, H0 + HOUR_MS)).toEqual([
      { resultId: 'r1', position: 1, impressions: 1, clicks: 0 },
      { resultId: 'r1', position: 2, impressions: 1, clicks: 1 },
      { resultId: 'r2', position: 1, impressions: 1, clicks: 0 },
    ]);
    expect(await w.reads.results('shoes', H0, H0 + HOUR_MS, { dimension: 'deviceType', value: 'desktop' })).toEqual([]);
    expect(await w.reads.results('shoes', H0 + HOUR_MS, H0 + 2 * HOUR_MS)).toEqual([]);
    expect(await w.reads.texts(['shoes', 'socks'])).toEqual(new Map([['shoes', 'Running Shoes']]));
  });

  it('knows the freshness the fold recorded when it reached the end, and none before', async () => {
    expect(await w.reads.freshAsOf()).toBeNull();
    await w.fold([item('F1', {})], 111);
    expect(await w.reads.freshAsOf()).toBe(111);
  });

  it('counts distinct queries per UTC day of the days a slice touches, the whole day even at a window edge', async () => {
    await w.fold([
      item('E1', { queryId: 'e1', queryHash: 'shoes', eventTime: H0 - DAY + 5 }),
      item('E2', { queryId: 'e2', queryHash: 'socks', eventTime: H0 - DAY + 20 * HOUR_MS }),
      item('E3', { queryId: 'e3', queryHash: 'shoes', eventTime: H0 + 3 * HOUR_MS }),
      item('E4', { queryId: 'e4', queryHash: 'hats', eventTime: H0 + DAY + 1 }),
    ]);
    expect(await w.reads.distinctPerDay(all(H0 - DAY + 12 * HOUR_MS, H0 + DAY))).toEqual(
      new Map([
        [H0 - DAY, 2],
        [H0, 1],
      ]),
    );
  });

  it('reads the previous window with the current one: impressions and clicks of the queries the current one lists', async () => {
    const items = spreadItems();
    await w.fold(items, H0 + 1_800_000);
    for (const length of [7, 14]) {
      const slice = all(H0 - length * DAY, H0);
      const previous = { fromHour: H0 - 2 * length * DAY, toHour: H0 - length * DAY };
      const got = await w.reads.queryTotalsWithPrevious(slice, previous, { minSearches: 8 });
      expect(totalsOf(got.current)).toEqual(totalsOf(await w.reads.queryTotals(slice, { minSearches: 8 })));
      const before = await w.reads.queryTotals({ ...slice, ...previous }, { minSearches: 0, hashes: got.current.map((r) => r.queryHash) });
      const ctr = (rows: QueryCounters[]) => rows.map((r) => [r.queryHash, r.counters.impressions, r.counters.clicks]).sort();
      expect(ctr(got.previous)).toEqual(ctr(before));
      expect(got.previous.length).toBeGreaterThan(0);
    }
  });

  it('reads windows around the anchor of the precomputed spans as the hour rows sum them (the fake holds hour rows only)', async () => {
    const items = spreadItems();
    // The anchor: H0 − 3 h (the clock at H0 + 30 min).
    await w.fold(items, H0 + 1_800_000);
    const reference = new FakeAnalyticsReadsStore();
    reference.fold(items, H0 + 1_800_000);
    for (const length of [7, 30]) {
      for (const [fromHour, toHour] of [
        [H0 - length * DAY, H0],
        [H0 - 5 * HOUR_MS - length * DAY, H0 - 5 * HOUR_MS],
        [H0 - 2 * length * DAY, H0 - length * DAY],
      ] as const) {
        for (const slice of [all(fromHour, toHour), { dimension: 'deviceType' as const, value: 'mobile', fromHour, toHour }]) {
          for (const options of [{ minSearches: 0 }, { minSearches: 8 }, { minSearches: 0, hashes: ['socks', 'hats'] }]) {
            expect(totalsOf(await w.reads.queryTotals(slice, options))).toEqual(totalsOf(await reference.queryTotals(slice, options)));
          }
          expect(await w.reads.distinctQueries(slice)).toBe(await reference.distinctQueries(slice));
        }
      }
    }
  });
}

describeOnEveryDatabase('analytics reads store contract: Kysely store', (kind) => {
  const t = useTestDatabase(kind);
  beforeEach(async () => clearAnalytics(t.database));
  readsContract(() => ({
    reads: new KyselyAnalyticsReadsStore(t.database.db, t.database.capabilities),
    fold: async (items, startedAt = 0) => {
      await insertItems(t.database, items);
      await new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities).aggregateNext(100_000, planFold, startedAt);
    },
  }));

  // On the database alone: the same store read with its spans and without (no anchor).
  it('per-query sums and distinct counts read through the spans equal those summed from the hour rows, for windows around the anchor', async () => {
    const items = spreadItems();
    const store = new KyselyAnalyticsReadsStore(t.database.db, t.database.capabilities);
    await insertItems(t.database, items);
    // The anchor: H0 − 3 h (the clock at H0 + 30 min).
    await new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities).aggregateNext(1000, planFold, H0 + 1_800_000);
    const windows: [number, number][] = [];
    const day = 24 * HOUR_MS;
    for (const length of [7, 14, 30]) {
      for (const shift of [-5, 0, 2]) windows.push([H0 + shift * HOUR_MS - length * day, H0 + shift * HOUR_MS]);
      windows.push([H0 - 2 * length * day, H0 - length * day]); // the previous window
    }
    windows.push([H0 - 60 * day - 3 * HOUR_MS, H0 - 3 * HOUR_MS]);
    const read = async () => {
      const out: unknown[] = [];
      for (const [fromHour, toHour] of windows) {
        for (const slice of [all(fromHour, toHour), { dimension: 'deviceType' as const, value: 'mobile', fromHour, toHour }]) {
          for (const options of [{ minSearches: 0 }, { minSearches: 8 }, { minSearches: 0, hashes: ['socks', 'hats'] }]) {
            const rows = await store.queryTotals(slice, options);
            out.push(
              rows
                .map((r) => [r.queryHash, r.rows, r.counters.searches, r.counters.clicks, r.counters.impressions, r.counters.abandoned])
                .sort(),
            );
          }
          out.push(await store.distinctQueries(slice));
        }
      }
      return out;
    };
    const viaSpans = await read();
    await t.database.db.updateTable('analytics_progress').set({ window_anchor: null }).execute();
    expect(viaSpans).toEqual(await read());
    // and the windows were not all empty
    expect(JSON.stringify(viaSpans).length).toBeGreaterThan(2000);
  }, 120_000);
});

describe('analytics reads store contract: in-memory fake', () => {
  readsContract(() => {
    const reads = new FakeAnalyticsReadsStore();
    return { reads, fold: async (items, startedAt) => reads.fold(items, startedAt ?? 0) };
  });
});
