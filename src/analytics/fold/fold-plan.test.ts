import { describe, expect, it } from 'vitest';
import { mulberry32, shuffleInPlace } from '../../random/index.js';
import { COUNTERS, HOUR_MS, type AnalyticsItem, type Counters } from '../model/counters.js';
import { analyticsItem } from '../../../test/analytics/support/analytics-item.js';
import { planFold, rowKeyString, type EntityState, type FoldPlan } from './fold-plan.js';

// The fold plan without a database: what one batch adds, what a later batch retracts, and that
// any batching of the same items sums to one fold over all of them.

const H0 = Date.parse('2026-11-20T00:00:00Z');

function item(id: string, over: Partial<AnalyticsItem> = {}): AnalyticsItem {
  return analyticsItem(id, H0 + 60_000, over);
}

/** The non-zero counters of the plan's row with that key (undefined: no such row). */
function rowOf(plan: FoldPlan, queryHash: string | null, dimension = '', value = '', hour = H0): Partial<Counters> | undefined {
  const row = plan.rows.find((r) => rowKeyString(r.key) === rowKeyString({ queryHash, dimension: dimension as '', value, hour }));
  if (!row) return undefined;
  return Object.fromEntries(COUNTERS.filter((c) => row.counters[c] !== 0).map((c) => [c, row.counters[c]]));
}

/** Folds the batches one after another, as the store does: each sees the states the earlier ones left. */
function foldBatches(batches: AnalyticsItem[][]): { sums: Map<string, Counters>; states: Map<string, EntityState> } {
  const states = new Map<string, EntityState>();
  const sums = new Map<string, Counters>();
  for (const batch of batches) {
    const plan = planFold(batch, states);
    for (const [k, s] of plan.states) states.set(k, s);
    for (const r of plan.rows) {
      const k = rowKeyString(r.key);
      const sum = sums.get(k) ?? (Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Counters);
      for (const c of COUNTERS) sum[c] += r.counters[c];
      sums.set(k, sum);
    }
  }
  // Rows whose deltas cancelled out are no rows at all; sums of doubles are compared rounded.
  for (const [k, sum] of sums) {
    for (const c of COUNTERS) sum[c] = Math.round(sum[c] * 1e9) / 1e9 + 0; // + 0: no −0
    if (COUNTERS.every((c) => sum[c] === 0)) sums.delete(k);
  }
  return { sums, states };
}

describe('planFold', () => {
  it('counts a search with a click at position 3: impressions, clicks, the first click and its histogram bucket, per dimension value', () => {
    const plan = planFold(
      [
        item('I1', { deviceType: 'mobile', resultCount: 12 }),
        item('I2', { userAction: 'click', position: 3, eventTime: H0 + 120_000, deviceType: 'mobile' }),
      ],
      new Map(),
    );
    const expected = {
      searches: 1,
      impressions: 1,
      clicks: 1,
      first_clicks: 1,
      first_click_position_sum: 3,
      first_click_rr_sum: 1 / 3,
      fc_03: 1,
      result_count_searches: 1,
    };
    expect(rowOf(plan, null)).toEqual({ ...expected, sessions: 1 });
    expect(rowOf(plan, null, 'deviceType', 'mobile')).toEqual({ ...expected, sessions: 1 });
    // Per query: the (session, query) pair counts as the query's session.
    expect(rowOf(plan, 'shoes')).toEqual({ ...expected, sessions: 1 });
    expect(rowOf(plan, 'shoes', 'language', 'en')).toBeUndefined();
    expect(plan.results).toEqual(
      expect.arrayContaining([
        { dimension: '', value: '', queryHash: 'shoes', hour: H0, resultId: 'r1', position: 1, impressions: 1, clicks: 0 },
        { dimension: '', value: '', queryHash: 'shoes', hour: H0, resultId: 'r1', position: 3, impressions: 0, clicks: 1 },
      ]),
    );
    expect([...plan.states.keys()].sort()).toEqual(['p:A\nshoes', 'q:q1', 's:A']);
  });

  it('counts a search without a click as abandoned, and a later batch with its click retracts that', () => {
    const first = planFold([item('I1', { resultCount: 0 })], new Map());
    expect(rowOf(first, null)).toEqual({
      searches: 1,
      abandoned: 1,
      sessions: 1,
      impressions: 1,
      result_count_searches: 1,
      zero_result_searches: 1,
    });
    const second = planFold([item('I2', { userAction: 'click', position: 25, eventTime: H0 + 600_000 })], first.states);
    // The search's old contribution out, its new one in: abandoned −1, a first click beyond 20 in fc_21.
    expect(rowOf(second, null)).toEqual({
      abandoned: -1,
      clicks: 1,
      first_clicks: 1,
      first_click_position_sum: 25,
      first_click_rr_sum: 1 / 25,
      fc_21: 1,
    });
  });

  it('lands a late event in its own hour, and moves a search to the hour of its earliest item', () => {
    const first = planFold([item('I2', { eventTime: H0 + HOUR_MS + 5 })], new Map());
    expect(rowOf(first, null, '', '', H0 + HOUR_MS)).toMatchObject({ searches: 1, impressions: 1 });
    const late = planFold([item('I1', { eventTime: H0 + 5 })], first.states);
    expect(rowOf(late, null, '', '', H0)).toEqual({ searches: 1, abandoned: 1, sessions: 1, impressions: 1 });
    expect(rowOf(late, null, '', '', H0 + HOUR_MS)).toEqual({ searches: -1, abandoned: -1, sessions: -1 });
  });

  it('writes no row and no state for an item that changes no entity contribution', () => {
    const first = planFold([item('I1', { userAction: 'search' })], new Map());
    const again = planFold([item('I2', { userAction: 'search', eventTime: H0 + 120_000 })], first.states);
    expect(again.rows).toEqual([]);
    expect(again.states.size).toBe(0);
  });

  it('keeps the display text of the earliest item id, and reads nothing for an item without a query hash', () => {
    const plan = planFold(
      [item('I9', { queryText: 'later' }), item('I3', { queryText: 'Running Shoes' }), item('I1', { queryHash: null, queryText: 'x' })],
      new Map(),
    );
    expect(plan.texts).toEqual(new Map([['shoes', { text: 'Running Shoes', sourceId: 'I3' }]]));
    expect(plan.rows.some((r) => r.key.queryHash === null)).toBe(true);
  });

  it('sums to one fold over all the items, whatever the batching and the order the batches arrive in (seeded)', () => {
    const random = mulberry32(24);
    const of = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
    const items = Array.from({ length: 300 }, (_, i) =>
      item(`ID${String(i).padStart(5, '0')}`, {
        sessionId: of(['A', 'B', 'C', 'D']),
        queryId: of(['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7']),
        queryHash: of(['shoes', 'socks', null]),
        userAction: of(['impression', 'impression', 'click', 'purchase', 'search', null]),
        eventTime: H0 + Math.floor(random() * 6 * HOUR_MS),
        position: of([1, 2, 7, 30, null]),
        deviceType: of(['mobile', 'desktop', null]),
        language: of(['en', null]),
        resultCount: of([0, 9, null]),
      }),
    );
    const whole = foldBatches([items]);
    expect(whole.sums.size).toBeGreaterThan(20);
    for (let run = 0; run < 20; run += 1) {
      const shuffled = [...items];
      shuffleInPlace(shuffled, random);
      const batches: AnalyticsItem[][] = [];
      for (let i = 0; i < shuffled.length;) {
        const size = 1 + Math.floor(random() * 40);
        batches.push(shuffled.slice(i, i + size));
        i += size;
      }
      const batched = foldBatches(batches);
      expect(batched.sums).toEqual(whole.sums);
      expect(batched.states).toEqual(whole.states);
    }
  });
});
