import { sql } from 'kysely';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { KyselyAnalyticsFoldStore } from '../../src/analytics/store/fold.kysely-store.js';
import { KyselyAnalyticsReadsStore } from '../../src/analytics/store/reads.kysely-store.js';
import type { Slice } from '../../src/analytics/store/reads.store.js';
import { planFold } from '../../src/analytics/fold/fold.js';
import { HOUR_MS, type AnalyticsItem } from '../../src/analytics/model/counters.js';
import { describeOnEveryDatabase, useTestDatabase } from '../support/test-database.js';
import { analyticsItem, clearAnalytics, insertItems } from '../analytics/support/raw-items.js';

// The analytics store has no in-memory fake (its service is tested over the real store), so its
// contract runs on every database only.
const H0 = Date.parse('2026-11-20T00:00:00Z');
const LOCK = 774_201_012;

const item = (id: string, over: Partial<AnalyticsItem>) => analyticsItem(id, H0, { sessionId: 's1', deviceType: 'mobile', ...over });

const all = (fromHour: number, toHour: number): Slice => ({ dimension: '', value: '', fromHour, toHour });

describeOnEveryDatabase('analytics store contract', (kind) => {
  const t = useTestDatabase(kind);
  let folds: KyselyAnalyticsFoldStore;
  let store: KyselyAnalyticsReadsStore;
  beforeAll(async () => {
    folds = new KyselyAnalyticsFoldStore(t.database.db, t.database.capabilities);
    store = new KyselyAnalyticsReadsStore(t.database.db, t.database.capabilities);
  });
  beforeEach(async () => clearAnalytics(t.database));

  it('folds at most `limit` items per call, counts what waits, and records freshness only at the end of the backlog', async () => {
    await insertItems(t.database, [item('A3', {}), item('A1', {}), item('A2', { userAction: 'click' })]);
    expect(await folds.backlogSize()).toBe(3);
    expect(await folds.aggregateNext(2, planFold, 111)).toBe(2);
    expect(await folds.backlogSize()).toBe(1);
    expect(await store.freshAsOf()).toBeNull();
    expect(await folds.aggregateNext(2, planFold, 222)).toBe(1);
    expect(await folds.backlogSize()).toBe(0);
    expect(await store.freshAsOf()).toBe(222);
    expect(await folds.aggregateNext(2, planFold, 333)).toBe(0);
    expect(await store.freshAsOf()).toBe(333);
    const [hour] = await store.totalHours(all(H0, H0 + HOUR_MS));
    expect(hour).toMatchObject({ hour: H0, counters: { searches: 1, impressions: 2, clicks: 1, abandoned: 0, first_clicks: 1 } });
  });

  it('answers null while another instance holds the analytics lock (PostgreSQL; SQLite serialises writers)', async () => {
    await insertItems(t.database, [item('B1', {})]);
    if (!t.database.capabilities.supportsAdvisoryLocks) return;
    await t.database.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${LOCK}, hashtext(current_schema()))`.execute(trx);
      expect(await folds.aggregateNext(10, planFold, 1)).toBeNull();
    });
    expect(await folds.aggregateNext(10, planFold, 1)).toBe(1);
  });

  it('reads slices: hours, dimension values, per-query sums with minSearches or named hashes, distinct queries', async () => {
    await insertItems(t.database, [
      item('C1', { queryId: 'q1', queryHash: 'shoes' }),
      item('C2', { queryId: 'q2', queryHash: 'shoes', eventTime: H0 + HOUR_MS + 5, deviceType: 'desktop' }),
      item('C3', { queryId: 'q3', queryHash: 'socks', eventTime: H0 + 2 * HOUR_MS }),
    ]);
    await folds.aggregateNext(100, planFold, 0);
    expect((await store.totalHours(all(H0, H0 + 3 * HOUR_MS))).map((h) => [h.hour - H0, h.counters.searches])).toEqual([
      [0, 1],
      [HOUR_MS, 1],
      [2 * HOUR_MS, 1],
    ]);
    expect((await store.totalHours(all(H0 + HOUR_MS, H0 + 2 * HOUR_MS))).map((h) => h.hour - H0)).toEqual([HOUR_MS]);
    const mobile = await store.totalHours({ dimension: 'deviceType', value: 'mobile', fromHour: H0, toHour: H0 + 3 * HOUR_MS });
    expect(mobile.map((h) => h.hour - H0)).toEqual([0, 2 * HOUR_MS]);
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
    expect(await store.searchTrends(all(H0, H0 + 3 * HOUR_MS), ['shoes', 'socks'], 24 * HOUR_MS)).toHaveLength(2);
    expect(await store.distinctQueries(all(H0, H0 + 3 * HOUR_MS))).toBe(2);
    expect(await store.distinctQueries(all(H0 + HOUR_MS, H0 + 2 * HOUR_MS))).toBe(1);
    expect(await store.knows('shoes')).toBe(true);
    expect(await store.knows('hats')).toBe(false);
  });

  it('results per result and position; the display text of the earliest item id wins whatever the fold order', async () => {
    await insertItems(t.database, [
      item('D5', { queryText: 'later text', position: 2 }),
      item('D7', { userAction: 'click', position: 2 }),
      item('D6', { resultId: 'r2', position: 1 }),
    ]);
    await folds.aggregateNext(100, planFold, 0);
    await insertItems(t.database, [item('D1', { queryId: 'q9', queryText: 'Running Shoes' })]);
    await folds.aggregateNext(100, planFold, 0);
    expect(await store.results('shoes', H0, H0 + HOUR_MS)).toEqual([
      { resultId: 'r1', position: 1, impressions: 1, clicks: 0 },
      { resultId: 'r1', position: 2, impressions: 1, clicks: 1 },
      { resultId: 'r2', position: 1, impressions: 1, clicks: 0 },
    ]);
    expect(await store.texts(['shoes', 'socks'])).toEqual(new Map([['shoes', 'Running Shoes']]));
  });
  it('per-query sums and distinct counts read through the spans equal those summed from the hour rows, for windows around the anchor', async () => {
    // 3 queries, a search every 7 hours over 70 days (a mobile one every 3rd), so every span and edge has rows.
    const items: AnalyticsItem[] = [];
    for (let i = 0; i < 240; i += 1) {
      const at = H0 - 70 * 24 * HOUR_MS + i * 7 * HOUR_MS + 60_000;
      const hash = ['shoes', 'socks', 'hats'][i % 3]!;
      items.push(
        item(`W${String(i).padStart(4, '0')}a`, {
          queryId: `w${i}`,
          sessionId: `s${i % 11}`,
          queryHash: hash,
          eventTime: at,
          deviceType: i % 3 === 0 ? 'mobile' : 'desktop',
        }),
      );
      if (i % 2 === 0)
        items.push(
          item(`W${String(i).padStart(4, '0')}b`, {
            queryId: `w${i}`,
            sessionId: `s${i % 11}`,
            queryHash: hash,
            eventTime: at + 1000,
            userAction: 'click',
          }),
        );
    }
    await insertItems(t.database, items);
    // The anchor: H0 − 3 h (the clock at H0 + 30 min).
    await folds.aggregateNext(1000, planFold, H0 + 1_800_000);
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
