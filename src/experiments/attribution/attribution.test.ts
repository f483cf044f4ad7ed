import { describe, expect, it } from 'vitest';
import { emptyStats } from '../../vocabulary/index.js';
import { metricSumChanges, planAttribution, searchKey, type AttributableItem, type ExposureWindow } from './attribution.js';

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
