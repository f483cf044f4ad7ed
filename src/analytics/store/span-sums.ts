import { COUNTERS, emptyCounters, type Counter, type Counters } from '../model/counters.js';
import type { QueryCounters } from './reads.store.js';

/**
 * Per-query sums put together from span rows and edge hour rows (query-totals.kysely-store.ts reads
 * them): which counters to read, and how the pieces add up. Plain values only.
 */

// A copy of one zero object (by spread: it keeps its fast shape; emptyCounters' Object.fromEntries
// makes a dictionary-mode object, several times slower to build and add into, which showed as a
// third of a page's CPU time at 10 000 listed queries).
export const ZERO: Readonly<Counters> = emptyCounters();
export const zero = (): Counters => ({ ...ZERO });

/** The counters of a row: `columns` read (those selected), the others 0. */
export function countersOf(row: Record<string, unknown>, columns: readonly Counter[] = COUNTERS): Counters {
  const c = zero();
  for (const k of columns) c[k] = Number(row[k] ?? 0);
  return c;
}

// The query list needs no histogram: summing 21 fewer columns per row keeps it cheaper.
export const LIST_COUNTERS = COUNTERS.filter((c) => !c.startsWith('fc_'));
// Sorting by change needs the previous window's CTR of every query that can be listed.
export const PREVIOUS_COUNTERS: readonly Counter[] = ['impressions', 'clicks'];
/**
 * o += sign × r over the list's counters, each named (a loop over the names is a keyed access per
 * counter: most of combine's time at 10 000 queries). Checked against LIST_COUNTERS when loaded.
 */
function addList(o: Counters, r: Counters, sign: number): void {
  o.searches += sign * r.searches;
  o.abandoned += sign * r.abandoned;
  o.sessions += sign * r.sessions;
  o.impressions += sign * r.impressions;
  o.clicks += sign * r.clicks;
  o.conversions += sign * r.conversions;
  o.first_clicks += sign * r.first_clicks;
  o.first_click_position_sum += sign * r.first_click_position_sum;
  o.zero_result_searches += sign * r.zero_result_searches;
  o.result_count_searches += sign * r.result_count_searches;
  o.first_click_rr_sum += sign * r.first_click_rr_sum;
}
{
  const probe = zero();
  addList(probe, Object.fromEntries(COUNTERS.map((c) => [c, 1])) as Counters, 1);
  if (COUNTERS.some((c) => probe[c] !== (LIST_COUNTERS.includes(c) ? 1 : 0))) throw new Error('addList does not add LIST_COUNTERS');
}

/** The counters to read from span rows: those asked for and searches (minSearches), or all the list's. */
export function spanColumns(columns: readonly Counter[] | undefined): readonly Counter[] {
  if (!columns) return LIST_COUNTERS;
  const asked = new Set<Counter>(['searches', ...columns]);
  return LIST_COUNTERS.filter((c) => asked.has(c));
}

/** Marks sums whose span rows were read with fewer counters than the list's. */
export function marked(list: QueryCounters[], columns: readonly Counter[]): QueryCounters[] {
  if (columns.length < LIST_COUNTERS.length) for (const r of list) r.partial = true;
  return list;
}

/**
 * Per-query sums of a window read as span rows added, edge hour rows with their sign and span rows
 * subtracted: the queries with rows in the window (a query is created by an added row only).
 */
export function combine(
  added: QueryCounters[],
  edges: { sign: 1 | -1; rows: QueryCounters[] }[],
  subtracted: QueryCounters[],
): QueryCounters[] {
  const out = new Map<string, QueryCounters>();
  const put = (r: QueryCounters, sign: number, create: boolean) => {
    let o = out.get(r.queryHash);
    if (!o) {
      if (!create) return;
      o = { queryHash: r.queryHash, counters: zero(), rows: 0 };
      out.set(r.queryHash, o);
    }
    o.rows += sign * r.rows;
    addList(o.counters, r.counters, sign);
  };
  for (const r of added) put(r, 1, true);
  for (const e of edges) for (const r of e.rows) put(r, e.sign, e.sign > 0);
  for (const r of subtracted) put(r, -1, false);
  const list = [...out.values()].filter((r) => r.rows > 0);
  // Sums of doubles put back together: a query's reciprocal-rank sum can be off by an ulp.
  for (const r of list) r.counters.first_click_rr_sum = Math.round(r.counters.first_click_rr_sum * 1e9) / 1e9;
  return list;
}
