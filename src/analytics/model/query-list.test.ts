import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../common/errors.js';
import { DAY_MS } from '../../common/time.js';
import { FakeAnalyticsReadsStore } from '../store/fake-reads.store.js';
import type { Slice } from '../store/reads.store.js';
import { analyticsItem } from '../../../test/analytics/support/analytics-item.js';
import { HOUR_MS, type AnalyticsItem } from './counters.js';
import { QUERY_SORTS, listQueries, type QueryListOptions, type QueryRow } from './query-list.js';

// Paging and sorting of the queries list, over the in-memory reads (held to the real store by
// test/contract/analytics-reads.contract.test.ts).

const TO = Date.parse('2026-11-20T00:00:00Z');
const WINDOW = { fromHour: TO - 7 * DAY_MS, toHour: TO };
const SLICE: Slice = { dimension: '', value: '', ...WINDOW };

let nextId = 0;
/** `n` searches of the query from `at`, each an impression (or `over.userAction`); the first `clicks` of them also a click. */
function searches(queryHash: string, n: number, clicks: number, at: number, over: Partial<AnalyticsItem> = {}): AnalyticsItem[] {
  const items: AnalyticsItem[] = [];
  for (let k = 0; k < n; k += 1) {
    const base = analyticsItem('', at + k * 1000, {
      sessionId: `s${k % 4}`,
      queryId: `${queryHash}-${at}-${k}`,
      queryHash,
      ...over,
    });
    items.push({ ...base, id: `I${String((nextId += 1)).padStart(6, '0')}` });
    if (k < clicks)
      items.push({ ...base, id: `I${String((nextId += 1)).padStart(6, '0')}`, userAction: 'click', eventTime: base.eventTime + 1 });
  }
  return items;
}

/** 12 queries q00…q11 with 10 + i searches in the window, i of them clicked; q03 also last week; q11 without impressions. */
function world(): FakeAnalyticsReadsStore {
  const reads = new FakeAnalyticsReadsStore();
  const items: AnalyticsItem[] = [];
  for (let i = 0; i < 11; i += 1) items.push(...searches(`q${String(i).padStart(2, '0')}`, 10 + i, i, TO - 2 * DAY_MS + i * HOUR_MS));
  items.push(...searches('q11', 12, 0, TO - DAY_MS, { userAction: 'search', resultId: null }).filter((i) => i.userAction !== 'click'));
  // The previous window: q03 was searched 20 times, every one clicked.
  items.push(...searches('q03', 20, 20, TO - 10 * DAY_MS));
  // Too few searches to be listed by default.
  items.push(...searches('rare', 2, 2, TO - DAY_MS));
  reads.fold(items, TO);
  return reads;
}

async function allPages(reads: FakeAnalyticsReadsStore, options: QueryListOptions): Promise<QueryRow[]> {
  const rows: QueryRow[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page += 1) {
    const got = await listQueries(reads, WINDOW, SLICE, { ...options, cursor });
    expect(got.items.length).toBeLessThanOrEqual(options.limit ?? 50);
    rows.push(...got.items);
    if (got.nextCursor === null) return rows;
    cursor = got.nextCursor;
  }
  throw new Error('the cursor never ended');
}

describe('listQueries', () => {
  it('pages by searches, most first, through the cursor: every query with at least 10 searches once', async () => {
    const rows = await allPages(world(), { limit: 5 });
    expect(rows.map((r) => [r.queryHash, r.searches])).toEqual([
      ['q10', 20],
      ['q09', 19],
      ['q08', 18],
      ['q07', 17],
      ['q06', 16],
      ['q05', 15],
      ['q04', 14],
      ['q03', 13],
      ['q02', 12],
      ['q11', 12],
      ['q01', 11],
      ['q00', 10],
    ]);
  });

  it('sorts by CTR either way, with the query that has no impressions last in both orders', async () => {
    const reads = world();
    const desc = await allPages(reads, { sort: 'ctr', order: 'desc', limit: 4 });
    const asc = await allPages(reads, { sort: 'ctr', order: 'asc', limit: 4 });
    expect(desc.map((r) => r.queryHash)).toEqual(['q10', 'q09', 'q08', 'q07', 'q06', 'q05', 'q04', 'q03', 'q02', 'q01', 'q00', 'q11']);
    expect(asc.map((r) => r.queryHash)).toEqual(['q00', 'q01', 'q02', 'q03', 'q04', 'q05', 'q06', 'q07', 'q08', 'q09', 'q10', 'q11']);
    expect(desc[0]!.ctr).toBeCloseTo(10 / 20);
    expect(desc.at(-1)!.ctr).toBeNull();
  });

  it('pages every sort and order without a query twice or missed', async () => {
    const reads = world();
    for (const sort of QUERY_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const hashes = (await allPages(reads, { sort, order, limit: 5 })).map((r) => r.queryHash);
        expect([...hashes].sort(), `${sort} ${order}`).toEqual([
          'q00',
          'q01',
          'q02',
          'q03',
          'q04',
          'q05',
          'q06',
          'q07',
          'q08',
          'q09',
          'q10',
          'q11',
        ]);
      }
    }
  });

  it('lists fewer queries with a higher minSearches, and the rare one with none', async () => {
    const reads = world();
    expect((await listQueries(reads, WINDOW, SLICE, { minSearches: 18 })).items.map((r) => r.queryHash)).toEqual(['q10', 'q09', 'q08']);
    expect((await listQueries(reads, WINDOW, SLICE, { minSearches: 0 })).items.map((r) => r.queryHash)).toContain('rare');
  });

  it('refuses a cursor issued for another sort, or not issued at all', async () => {
    const reads = world();
    const { nextCursor } = await listQueries(reads, WINDOW, SLICE, { limit: 2 });
    expect(nextCursor).not.toBeNull();
    await expect(listQueries(reads, WINDOW, SLICE, { sort: 'ctr', cursor: nextCursor! })).rejects.toBeInstanceOf(ValidationError);
    await expect(listQueries(reads, WINDOW, SLICE, { order: 'asc', cursor: nextCursor! })).rejects.toBeInstanceOf(ValidationError);
    await expect(listQueries(reads, WINDOW, SLICE, { cursor: 'bm90IGEgY3Vyc29y' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('compares with the previous window of the same length, and sorts by that change', async () => {
    const reads = world();
    const { items } = await listQueries(reads, WINDOW, SLICE, { sort: 'change', order: 'asc', limit: 1 });
    // q03: CTR 3/13 now against 20/20 before, the only query with a previous window.
    expect(items.map((r) => r.queryHash)).toEqual(['q03']);
    const change = items[0]!.change;
    expect(change.previousSearches).toBe(20);
    expect(change.ctr.previous).toBe(1);
    expect(change.ctr.delta).toBeCloseTo(3 / 13 - 1);
    expect(change.ctr.pValue).toBeLessThan(0.001);
    expect(change.ctr.adjustedPValue).toBeGreaterThanOrEqual(change.ctr.pValue!);
    expect(change.ctr.significant).toBe(true);
    const q10 = (await listQueries(reads, WINDOW, SLICE, { limit: 1 })).items[0]!;
    expect(q10.change).toMatchObject({ previousSearches: 0, ctr: { previous: null, delta: null, significant: false } });
  });

  it('gives each row its share of all searches and a daily trend of its searches over the week', async () => {
    const [row] = (await listQueries(world(), WINDOW, SLICE, { limit: 1 })).items;
    const allSearches = 10 * 11 + 55 + 12 + 2;
    expect(row!.share).toBeCloseTo(20 / allSearches);
    expect(row!.trend.interval).toBe('day');
    expect(row!.trend.searches).toEqual([0, 0, 0, 0, 0, 20, 0]);
  });
});
