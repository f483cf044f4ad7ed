import { describe, expect, it } from 'vitest';
import { emptyStats } from '../../vocabulary/index.js';
import { metricSumChanges, planAttribution, searchKey, type ExposureWindow } from './attribution.js';
import type { AttributableItem } from '../model/attribution-records.js';

const item = (over: Partial<AttributableItem>): AttributableItem => ({
  id: 'i',
  sessionId: 's',
  queryId: 'q',
  userAction: null,
  rating: null,
  receivedAt: 100,
  position: null,
  dwellTime: null,
  timeToClick: null,
  scrollDepth: null,
  ...over,
});
const window = (over: Partial<ExposureWindow> & { conversions?: number } = {}): ExposureWindow => {
  const { conversions = 0, ...rest } = over;
  return {
    experimentId: 'e',
    phase: 0,
    unitId: 's',
    variantId: 'a',
    exposedAt: 50,
    phaseEndedAt: null,
    stats: { ...emptyStats(), conversions },
    ...rest,
  };
};

describe('planAttribution', () => {
  it('counts only items inside [exposedAt, phaseEndedAt)', () => {
    const plan = planAttribution(
      [
        item({ userAction: 'click', receivedAt: 49 }),
        item({ userAction: 'click', receivedAt: 50 }),
        item({ userAction: 'click', receivedAt: 99 }),
        item({ userAction: 'click', receivedAt: 100 }),
      ],
      new Map([['s', [window({ phaseEndedAt: 100 })]]]),
      new Map(),
    );
    expect(plan.units[0]!.stats.clicks).toBe(2);
  });

  it('continues a stored search: no new search, and no second first-click', () => {
    const known = new Map([[searchKey('e', 0, 's', 'q'), 1]]);
    const plan = planAttribution([item({ userAction: 'click', position: 1 })], new Map([['s', [window()]]]), known);
    expect(plan.units[0]!.stats).toMatchObject({ searches: 0, searches_with_click: 0, rr_sum: 0, clicks: 1 });
    expect(plan.searches).toEqual([]);
  });

  it('turns a stored click-less search into a clicked one and writes only that row', () => {
    const known = new Map([[searchKey('e', 0, 's', 'q'), 0]]);
    const plan = planAttribution([item({ userAction: 'click', position: 5 })], new Map([['s', [window()]]]), known);
    expect(plan.units[0]!.stats).toMatchObject({ searches: 0, searches_with_click: 1, rr_sum: 0.2 });
    expect(plan.searches).toEqual([{ experimentId: 'e', phase: 0, unitId: 's', queryId: 'q', hasClick: 1 }]);
  });

  it('counts a conversion once per unit, and not again when the unit already converted', () => {
    const items = [item({ userAction: 'purchase' }), item({ userAction: 'conversion' })];
    expect(planAttribution(items, new Map([['s', [window()]]]), new Map()).units[0]!.stats.conversions).toBe(1);
    expect(planAttribution(items, new Map([['s', [window({ conversions: 1 })]]]), new Map()).units[0]!.stats.conversions).toBe(0);
  });

  it('attributes one item to every experiment its session is exposed in', () => {
    const plan = planAttribution(
      [item({ userAction: 'impression' })],
      new Map([['s', [window(), window({ experimentId: 'f' })]]]),
      new Map(),
    );
    expect(plan.units.map((u) => [u.experimentId, u.stats.impressions])).toEqual([
      ['e', 1],
      ['f', 1],
    ]);
  });

  it("counts each variant's searches and first clicks per query hash, across batches, skipping items without a hash", () => {
    const exposures = new Map([
      ['s1', [window({ unitId: 's1', variantId: 'a' })]],
      ['s2', [window({ unitId: 's2', variantId: 'b' })]],
    ]);
    const first = planAttribution(
      [
        item({ sessionId: 's1', queryId: 'q1', queryHash: 'shoes', userAction: 'impression', receivedAt: 100 }),
        item({ sessionId: 's1', queryId: 'q1', queryHash: 'shoes', userAction: 'click', receivedAt: 110 }),
        item({ sessionId: 's1', queryId: 'q1', queryHash: 'shoes', userAction: 'click', receivedAt: 120 }), // not a first click
        item({ sessionId: 's1', queryId: 'q2', queryHash: 'socks', userAction: 'impression', receivedAt: 130 }),
        item({ sessionId: 's2', queryId: 'q3', queryHash: 'shoes', userAction: 'impression', receivedAt: 140 }),
        item({ sessionId: 's2', queryId: 'q4', queryHash: null, userAction: 'impression', receivedAt: 150 }),
        item({ sessionId: 's1', queryId: 'q5', queryHash: 'boots', userAction: 'impression', receivedAt: 40 }), // before exposure
      ],
      exposures,
      new Map(),
    );
    expect(first.querySums).toEqual([
      { experimentId: 'e', phase: 0, variantId: 'a', queryHash: 'shoes', searches: 1, clickedSearches: 1, lastSeen: 110 },
      { experimentId: 'e', phase: 0, variantId: 'a', queryHash: 'socks', searches: 1, clickedSearches: 0, lastSeen: 130 },
      { experimentId: 'e', phase: 0, variantId: 'b', queryHash: 'shoes', searches: 1, clickedSearches: 0, lastSeen: 140 },
    ]);
    // The search without a hash is still a search of its unit: only the coverage of queries leaves it out.
    expect(first.units.find((u) => u.unitId === 's2')!.stats.searches).toBe(2);

    const known = new Map(first.searches.map((s) => [searchKey(s.experimentId, s.phase, s.unitId, s.queryId), s.hasClick]));
    const second = planAttribution(
      [
        item({ sessionId: 's2', queryId: 'q3', queryHash: 'shoes', userAction: 'click', receivedAt: 200 }),
        item({ sessionId: 's2', queryId: 'q4', queryHash: null, userAction: 'click', receivedAt: 210 }),
        item({ sessionId: 's1', queryId: 'q2', queryHash: 'socks', userAction: 'impression', receivedAt: 220 }), // continues q2
      ],
      exposures,
      known,
    );
    // The later click of q3 counts under b's shoes row without a second search; q4's click has no hash.
    expect(second.querySums).toEqual([
      { experimentId: 'e', phase: 0, variantId: 'b', queryHash: 'shoes', searches: 0, clickedSearches: 1, lastSeen: 200 },
    ]);
    expect(second.units.find((u) => u.unitId === 's2')!.stats.searches_with_click).toBe(2);
  });

  it('moves variant sums by the change of each metric, squares included', () => {
    const before = { ...emptyStats(), clicks: 1, impressions: 3 };
    const delta = { ...emptyStats(), clicks: 2, impressions: 1 };
    const ctr = metricSumChanges(before, delta).find((c) => c.metric === 'ctr')!;
    // x: 1 → 3, y: 3 → 4
    expect(ctr).toEqual({ metric: 'ctr', sx: 2, sy: 1, sxx: 9 - 1, syy: 16 - 9, sxy: 12 - 3 });
    const conversion = metricSumChanges(before, delta).find((c) => c.metric === 'conversion_rate')!;
    expect(conversion).toMatchObject({ sx: 0, sy: 0, syy: 0 });
  });
});
