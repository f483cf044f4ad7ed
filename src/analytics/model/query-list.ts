import { ValidationError } from '../../common/errors.js';
import { holm, proportionsZTest } from '../../stats/index.js';
import type { AnalyticsReadsStore, Slice } from '../store/reads.store.js';
import { DAY_MS } from '../../common/time.js';
import { figuresOf, type Figures } from './figures.js';
import { bucketOf, bucketStarts, type RequestWindow } from './request-window.js';
import { HOUR_MS, type Counter, type Counters } from './counters.js';

export const QUERY_SORTS = ['searches', 'ctr', 'abandonment', 'firstClickPosition', 'change', 'zeroResults'] as const;
export type QuerySort = (typeof QUERY_SORTS)[number];

export interface QueryListOptions {
  sort?: QuerySort;
  order?: 'asc' | 'desc';
  minSearches?: number;
  limit?: number;
  cursor?: string;
}

/** One proportion against the previous window of the same length. */
export interface ProportionChange {
  previous: number | null;
  delta: number | null;
  pValue: number | null;
  /** Holm-adjusted across every test of the page shown */
  adjustedPValue: number | null;
  significant: boolean;
}

export interface QueryRow extends Figures {
  queryHash: string;
  queryText?: string;
  share: number | null;
  change: { previousSearches: number; ctr: ProportionChange; abandonmentRate: ProportionChange };
  trend: { interval: 'hour' | 'day'; searches: number[] };
}

export interface QueryPage {
  items: QueryRow[];
  nextCursor: string | null;
}

interface Candidate {
  queryHash: string;
  now: Counters;
  /** `now` holds the sort key's counters only (and searches) */
  partial: boolean;
  before: Counters | undefined;
  key: number | null;
}

/** The counters each sort's key is computed from: the candidates are read with these only. */
const KEY_COLUMNS: Record<QuerySort, readonly Counter[]> = {
  searches: ['searches'],
  ctr: ['impressions', 'clicks'],
  abandonment: ['abandoned', 'searches'],
  firstClickPosition: ['first_clicks', 'first_click_position_sum'],
  change: ['impressions', 'clicks'],
  zeroResults: ['zero_result_searches'],
};

const ctrChange = (c: Candidate) => {
  const now = figuresOf(c.now).ctr;
  const before = c.before ? figuresOf(c.before).ctr : null;
  return now !== null && before !== null ? now - before : null;
};

function sortKey(sort: QuerySort, c: Candidate): number | null {
  const f = figuresOf(c.now);
  switch (sort) {
    case 'searches':
      return f.searches;
    case 'ctr':
      return f.ctr;
    case 'abandonment':
      return f.abandonmentRate;
    case 'firstClickPosition':
      return f.meanFirstClickPosition;
    case 'zeroResults':
      return f.zeroResultSearches;
    case 'change':
      return ctrChange(c);
  }
}

/** Rows without a value (no impressions, no clicks, no previous window) sort last in either order; ties by queryHash. */
function compare(
  order: 'asc' | 'desc',
  a: { key: number | null; queryHash: string },
  b: { key: number | null; queryHash: string },
): number {
  if (a.key === null || b.key === null) {
    if (a.key !== b.key) return a.key === null ? 1 : -1;
  } else if (a.key !== b.key) return order === 'asc' ? a.key - b.key : b.key - a.key;
  return a.queryHash < b.queryHash ? -1 : a.queryHash > b.queryHash ? 1 : 0;
}

interface CursorKey {
  s: QuerySort;
  o: 'asc' | 'desc';
  k: number | null;
  h: string;
}

const badCursor = () => ValidationError.field('/cursor', 'is not a cursor this service issued for this sort and order', 'querystring');

function decode(cursor: string, sort: QuerySort, order: 'asc' | 'desc'): CursorKey {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorKey;
    if (c.s === sort && c.o === order && typeof c.h === 'string' && (c.k === null || typeof c.k === 'number')) return c;
  } catch {
    // answered below
  }
  throw badCursor();
}

function test(successesBefore: number, nBefore: number, successesNow: number, nNow: number) {
  const previous = nBefore > 0 ? successesBefore / nBefore : null;
  const now = nNow > 0 ? successesNow / nNow : null;
  const z = proportionsZTest(successesBefore, nBefore, successesNow, nNow);
  return { previous, delta: now !== null && previous !== null ? now - previous : null, pValue: z.pValue };
}

/**
 * One page of queries in the window: figures, share of all searches, change against the previous
 * window of the same length (pooled two-proportion z-tests on CTR and abandonment, Holm-adjusted
 * across the page) and a trend of searches for sparklines.
 */
export async function listQueries(
  store: Pick<AnalyticsReadsStore, 'queryTotals' | 'queryTotalsWithPrevious' | 'totalSearches' | 'searchTrends' | 'texts'>,
  w: RequestWindow,
  slice: Slice,
  options: QueryListOptions,
): Promise<QueryPage> {
  const sort = options.sort ?? 'searches';
  const order = options.order ?? 'desc';
  const limit = options.limit ?? 50;
  const after = options.cursor !== undefined ? decode(options.cursor, sort, order) : undefined;
  const length = w.toHour - w.fromHour;
  const previous: Slice = { ...slice, fromHour: w.fromHour - length, toHour: w.fromHour };
  const minSearches = options.minSearches ?? 10;
  // Sorting by change needs the previous window's CTR of every query that can be listed (no
  // others): read with the current one, in one statement where the windows are read from the
  // spans. The page's rows read their previous window in full below, as for the other sorts.
  const [{ current, beforeAll }, allSearches] = await Promise.all([
    sort === 'change'
      ? store
          .queryTotalsWithPrevious(slice, previous, { minSearches, columns: KEY_COLUMNS[sort] })
          .then((r) => ({ current: r.current, beforeAll: new Map(r.previous.map((p) => [p.queryHash, p.counters])) }))
      : store.queryTotals(slice, { minSearches, columns: KEY_COLUMNS[sort] }).then((current) => ({ current, beforeAll: undefined })),
    store.totalSearches(slice),
  ]);
  let candidates: Candidate[] = current.map((r) => ({
    queryHash: r.queryHash,
    now: r.counters,
    partial: r.partial === true,
    before: beforeAll?.get(r.queryHash),
    key: null,
  }));
  for (const c of candidates) c.key = sortKey(sort, c);
  candidates.sort((a, b) => compare(order, a, b));
  if (after) candidates = candidates.filter((c) => compare(order, c, { key: after.k, queryHash: after.h }) > 0);
  const page = candidates.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    candidates.length > limit && last
      ? Buffer.from(JSON.stringify({ s: sort, o: order, k: last.key, h: last.queryHash } satisfies CursorKey), 'utf8').toString('base64url')
      : null;

  const hashes = page.map((c) => c.queryHash);
  const trendInterval = length > 2 * DAY_MS ? 'day' : 'hour';
  // Rows read with the sort key's counters only: their figures read in full, for the page alone.
  const partial = page.filter((c) => c.partial).map((c) => c.queryHash);
  const [full, before, trendRows, texts] = await Promise.all([
    partial.length > 0 ? store.queryTotals(slice, { minSearches: 0, hashes: partial }) : Promise.resolve([]),
    store.queryTotals(previous, { minSearches: 0, hashes }).then((rows) => new Map(rows.map((r) => [r.queryHash, r.counters]))),
    store.searchTrends(slice, hashes, trendInterval === 'day' ? DAY_MS : HOUR_MS),
    store.texts(hashes),
  ]);
  const fullCounters = new Map(full.map((r) => [r.queryHash, r.counters]));
  for (const c of page) if (c.partial) c.now = fullCounters.get(c.queryHash) ?? c.now;
  const starts = bucketStarts(w, trendInterval);
  const index = new Map(starts.map((t, i) => [t, i]));
  const trends = new Map(hashes.map((h) => [h, starts.map(() => 0)]));
  for (const t of trendRows) {
    const i = index.get(bucketOf(t.bucket, trendInterval));
    if (i !== undefined) trends.get(t.queryHash)![i]! += t.searches;
  }

  const tests = page.map((c) => {
    const b = before.get(c.queryHash);
    return {
      ctr: test(b?.clicks ?? 0, b?.impressions ?? 0, c.now.clicks, c.now.impressions),
      abandonmentRate: test(b?.abandoned ?? 0, b?.searches ?? 0, c.now.abandoned, c.now.searches),
    };
  });
  const adjusted = holm(tests.flatMap((t) => [t.ctr.pValue, t.abandonmentRate.pValue]));
  const items = page.map((c, i): QueryRow => {
    const f = figuresOf(c.now);
    const t = tests[i]!;
    const change = (x: (typeof t)['ctr'], j: number): ProportionChange => ({
      ...x,
      adjustedPValue: adjusted.adjusted[j] ?? null,
      significant: adjusted.rejected[j] ?? false,
    });
    const text = texts.get(c.queryHash);
    return {
      queryHash: c.queryHash,
      ...(text !== undefined ? { queryText: text } : {}),
      ...f,
      share: allSearches > 0 ? f.searches / allSearches : null,
      change: {
        previousSearches: before.get(c.queryHash)?.searches ?? 0,
        ctr: change(t.ctr, 2 * i),
        abandonmentRate: change(t.abandonmentRate, 2 * i + 1),
      },
      trend: { interval: trendInterval, searches: trends.get(c.queryHash)! },
    };
  });
  return { items, nextCursor };
}
