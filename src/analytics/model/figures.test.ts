import { describe, expect, it } from 'vitest';
import { emptyCounters, type Counters } from './counters.js';
import { addInto, figuresOf, histogramOf, sumCounters } from './figures.js';

const counters = (over: Partial<Counters>): Counters => ({ ...emptyCounters(), ...over });

describe('figuresOf', () => {
  it('derives the rates from summed counters, as the experiment metrics define them', () => {
    const f = figuresOf(
      counters({
        searches: 8,
        sessions: 3,
        impressions: 40,
        clicks: 10,
        abandoned: 2,
        first_clicks: 4,
        first_click_position_sum: 10,
        first_click_rr_sum: 2,
        conversions: 1,
        zero_result_searches: 1,
        result_count_searches: 4,
      }),
    );
    expect(f).toEqual({
      searches: 8,
      sessions: 3,
      impressions: 40,
      clicks: 10,
      ctr: 0.25,
      abandonmentRate: 0.25,
      meanFirstClickPosition: 2.5,
      mrr: 0.25,
      conversions: 1,
      zeroResultSearches: 1,
      zeroResultRate: 0.25,
    });
  });

  it('answers null, not 0 or NaN, for a rate without a denominator', () => {
    const f = figuresOf(counters({ clicks: 3 }));
    expect([f.ctr, f.abandonmentRate, f.meanFirstClickPosition, f.mrr, f.zeroResultRate]).toEqual([null, null, null, null, null]);
  });
});

describe('sums and the histogram', () => {
  it('adds counters column by column', () => {
    const total = sumCounters([counters({ searches: 1, fc_02: 1 }), counters({ searches: 2, clicks: 5 }), counters({ fc_02: 3 })]);
    expect(total).toEqual(counters({ searches: 3, clicks: 5, fc_02: 4 }));
    const into = counters({ searches: 1 });
    expect(addInto(into, counters({ searches: 1 }))).toBe(into);
    expect(into.searches).toBe(2);
  });

  it('shares first clicks over positions 1…20 and 21+', () => {
    const bars = histogramOf(counters({ first_clicks: 4, fc_01: 3, fc_21: 1 }));
    expect(bars).toHaveLength(21);
    expect(bars[0]).toEqual({ position: '1', firstClicks: 3, share: 0.75 });
    expect(bars[1]).toEqual({ position: '2', firstClicks: 0, share: 0 });
    expect(bars[20]).toEqual({ position: '21+', firstClicks: 1, share: 0.25 });
    expect(histogramOf(emptyCounters())[0]!.share).toBeNull();
  });
});
