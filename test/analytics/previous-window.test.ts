import { afterAll, beforeAll, expect, it } from 'vitest';
import { KyselyAnalyticsFoldStore } from '../../src/analytics/store/fold.kysely-store.js';
import { KyselyAnalyticsReadsStore } from '../../src/analytics/store/reads.kysely-store.js';
import type { QueryCounters, Slice } from '../../src/analytics/store/reads.store.js';
import { planFold } from '../../src/analytics/fold/fold-plan.js';
import { HOUR_MS, type AnalyticsItem } from '../../src/analytics/model/counters.js';
import { QUERY_SORTS, listQueries } from '../../src/analytics/model/query-list.js';
import { mulberry32 } from '../../src/random/index.js';
import type { DatabaseHandle } from '../../src/storage/database.js';
import { createTestDatabase, describeOnEveryDatabase, openTestDatabase, type TestDatabase } from '../support/test-database.js';
import { clearAnalytics, insertItems } from './support/raw-items.js';

// Sorting the query list by change reads the current and the previous window together
// (queryTotalsWithPrevious: one statement over both windows' spans). Its answers must be those of
// the two reads it replaces, and the pages those summed from the hour rows.
const H0 = Date.parse('2026-11-20T00:00:00Z');
const DAY = 24 * HOUR_MS;

/** 6 queries of different popularity, a search every 3 hours over 130 days, random clicks (fixed seed). */
function items(): AnalyticsItem[] {
  const random = mulberry32(20261123);
  const out: AnalyticsItem[] = [];
  const hashes = ['shoes', 'socks', 'hats', 'boots', 'belts', 'scarves'];
  for (let i = 0; i < 1040; i += 1) {
    const at = H0 - 130 * DAY + i * 3 * HOUR_MS + 60_000 + Math.floor(random() * 3 * HOUR_MS - 120_000);
    const hash = hashes[Math.min(5, Math.floor(-Math.log(1 - random()) * 1.6))]!;
    const base = {
      sessionId: `s${i % 13}`,
      queryId: `w${i}`,
      queryHash: hash,
      resultId: 'r1',
      position: 1,
      deviceType: random() < 0.4 ? 'mobile' : 'desktop',
      searchType: null,
      language: null,
      category: null,
      queryText: null,
      resultCount: null,
    };
    const id = `W${String(i).padStart(5, '0')}`;
    out.push({ ...base, id: `${id}a`, userAction: 'impression', eventTime: at });
    if (random() < 0.5)
      out.push({ ...base, id: `${id}b`, userAction: 'click', eventTime: at + 1000, position: 1 + Math.floor(random() * 3) });
  }
  // A query searched 45 and 20 days ago and again after the anchor: in the current window by an
  // edge of hour rows only (no row in the spans of the 7- and 14-day windows), with searches in
  // the previous one.
  for (const [j, back] of [45 * DAY, 20 * DAY, HOUR_MS, HOUR_MS / 2].entries()) {
    const base = { ...out[0]!, sessionId: `g${j}`, queryId: `g${j}`, queryHash: 'gloves', eventTime: H0 - back };
    out.push(
      { ...base, id: `G${j}a` },
      ...(j % 2 === 0 ? [{ ...base, id: `G${j}b`, userAction: 'click', eventTime: base.eventTime + 1000 }] : []),
    );
  }
  return out;
}

// The span path rounds reciprocal-rank sums to 1e-9 (sums of doubles put back together), the hour path does not.
const mrr = (key: string, value: unknown) => (key === 'mrr' && typeof value === 'number' ? Math.round(value * 1e6) / 1e6 : value);
const text = (rows: QueryCounters[]) => rows.map((r) => JSON.stringify([r.queryHash, r.rows, r.counters])).sort();

describeOnEveryDatabase('analytics: the current and previous windows read together', (kind) => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let store: KyselyAnalyticsReadsStore;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(kind);
    database = await openTestDatabase(testDatabase);
    store = new KyselyAnalyticsReadsStore(database.db, database.capabilities);
    await clearAnalytics(database);
    await insertItems(database, items());
    // The anchor: H0 − 3 h (the clock at H0 + 30 min).
    await new KyselyAnalyticsFoldStore(database.db, database.capabilities).aggregateNext(5000, planFold, H0 + 1_800_000);
  }, 120_000);
  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  const windows: [number, number][] = [];
  for (const length of [1, 7, 14, 30, 60])
    for (const shift of [-5, 0, 2]) windows.push([H0 + shift * HOUR_MS - length * DAY, H0 + shift * HOUR_MS]);
  const slices = (fromHour: number, toHour: number): Slice[] => [
    { dimension: '', value: '', fromHour, toHour },
    { dimension: 'deviceType', value: 'mobile', fromHour, toHour },
  ];

  it('equal queryTotals of the window, and impressions and clicks of queryTotals of the previous one for the queries listed', async () => {
    let compared = 0;
    for (const [fromHour, toHour] of windows) {
      const previous = { fromHour: 2 * fromHour - toHour, toHour: fromHour };
      for (const slice of slices(fromHour, toHour)) {
        for (const minSearches of [0, 1, 2, 20, 60, 100_000]) {
          const got = await store.queryTotalsWithPrevious(slice, previous, { minSearches });
          const current = await store.queryTotals(slice, { minSearches });
          const hashes = current.map((r) => r.queryHash);
          const before = hashes.length > 0 ? await store.queryTotals({ ...slice, ...previous }, { minSearches: 0, hashes }) : [];
          expect(text(got.current)).toEqual(text(current));
          const ctr = (rows: QueryCounters[]) =>
            rows.map((r) => [r.queryHash, r.rows, r.counters.impressions, r.counters.clicks].join()).sort();
          expect(ctr(got.previous)).toEqual(ctr(before));
          compared += got.current.length + got.previous.length;
        }
      }
    }
    // and the windows were not empty
    expect(compared).toBeGreaterThan(300);
  }, 120_000);

  // The spans are read with the sort key's counters only; the page's rows are then read in full.
  it('pages in every sort read through the spans equal those summed from the hour rows', async () => {
    const read = async () => {
      const out: string[] = [];
      for (const [fromHour, toHour] of windows)
        for (const slice of slices(fromHour, toHour))
          for (const sort of QUERY_SORTS)
            for (const order of ['asc', 'desc'] as const)
              out.push(
                JSON.stringify(await listQueries(store, { fromHour, toHour }, slice, { sort, order, minSearches: 2, limit: 4 }), mrr),
              );
      return out;
    };
    const viaSpans = await read();
    await database.db.updateTable('analytics_progress').set({ window_anchor: null }).execute();
    expect(viaSpans).toEqual(await read());
    // some pages list queries with a change
    expect(viaSpans.join().match(/"delta":-?0\.\d+/g)?.length ?? 0).toBeGreaterThan(20);
  }, 120_000);
});
