import { describe, expect, it } from 'vitest';
import { emptyCounters, type Counters } from '../model/counters.js';
import type { QueryCounters } from './reads.store.js';
import { LIST_COUNTERS, combine, countersOf, marked, spanColumns } from './span-sums.js';

const row = (queryHash: string, rows: number, over: Partial<Counters>): QueryCounters => ({
  queryHash,
  rows,
  counters: { ...emptyCounters(), ...over },
});

describe('span sums', () => {
  it('add the span, the edges with their sign and subtract the other span; a query is created by an added row only', () => {
    const list = combine(
      [row('shoes', 10, { searches: 30, clicks: 6 }), row('socks', 2, { searches: 2 })],
      [
        { sign: 1, rows: [row('shoes', 1, { searches: 4, clicks: 1 }), row('hats', 1, { searches: 1 })] },
        { sign: -1, rows: [row('shoes', 2, { searches: 5 }), row('caps', 1, { searches: 9 })] },
      ],
      [row('socks', 2, { searches: 2 }), row('boots', 3, { searches: 3 })],
    );
    // socks is left with no hour rows (gone), caps and boots were never added.
    expect(list.map((r) => [r.queryHash, r.rows, r.counters.searches, r.counters.clicks])).toEqual([
      ['shoes', 9, 29, 7],
      ['hats', 1, 1, 0],
    ]);
  });

  it('round a reciprocal-rank sum put back together, and leave the histogram columns out', () => {
    const [sum] = combine([row('shoes', 1, { first_click_rr_sum: 0.1 + 0.2, fc_01: 5 })], [], []);
    expect(sum!.counters.first_click_rr_sum).toBe(0.3);
    expect(sum!.counters.fc_01).toBe(0);
  });

  it('read the counters asked for and searches, and mark sums read with fewer than the list’s as partial', () => {
    expect(spanColumns(['clicks'])).toEqual(['searches', 'clicks']);
    expect(spanColumns(undefined)).toBe(LIST_COUNTERS);
    expect(marked([row('a', 1, {})], spanColumns(['clicks']))[0]!.partial).toBe(true);
    expect(marked([row('a', 1, {})], LIST_COUNTERS)[0]!.partial).toBeUndefined();
    expect(countersOf({ searches: '4', clicks: 2, fc_01: 1 }, ['searches', 'clicks'])).toEqual({
      ...emptyCounters(),
      searches: 4,
      clicks: 2,
    });
  });
});
