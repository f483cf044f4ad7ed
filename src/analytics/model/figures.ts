import { COUNTERS, HISTOGRAM_BUCKETS, emptyCounters, histogramColumn, type Counters } from './counters.js';

/**
 * The figures analytics reports, from summed counters. Definitions follow the experiment metrics:
 * ctr = clicks / impressions (items), abandonmentRate = searches without a click / searches.
 */
export interface Figures {
  searches: number;
  sessions: number;
  impressions: number;
  clicks: number;
  ctr: number | null;
  abandonmentRate: number | null;
  meanFirstClickPosition: number | null;
  mrr: number | null;
  conversions: number;
  zeroResultSearches: number;
  zeroResultRate: number | null;
}

const ratio = (num: number, den: number): number | null => (den > 0 ? num / den : null);

export function figuresOf(c: Counters): Figures {
  return {
    searches: c.searches,
    sessions: c.sessions,
    impressions: c.impressions,
    clicks: c.clicks,
    ctr: ratio(c.clicks, c.impressions),
    abandonmentRate: ratio(c.abandoned, c.searches),
    meanFirstClickPosition: ratio(c.first_click_position_sum, c.first_clicks),
    mrr: ratio(c.first_click_rr_sum, c.searches),
    conversions: c.conversions,
    zeroResultSearches: c.zero_result_searches,
    zeroResultRate: ratio(c.zero_result_searches, c.result_count_searches),
  };
}

export function addInto(into: Counters, add: Counters): Counters {
  for (const c of COUNTERS) into[c] += add[c];
  return into;
}

export function sumCounters(list: Iterable<Counters>): Counters {
  const out = emptyCounters();
  for (const c of list) addInto(out, c);
  return out;
}

export interface HistogramBar {
  /** "1"…"20", then "21+" */
  position: string;
  firstClicks: number;
  share: number | null;
}

/** Share of first clicks (with a position) at positions 1…20 and beyond. */
export function histogramOf(c: Counters): HistogramBar[] {
  return Array.from({ length: HISTOGRAM_BUCKETS }, (_, i) => {
    const n = c[histogramColumn(i + 1)];
    return {
      position: i + 1 === HISTOGRAM_BUCKETS ? `${HISTOGRAM_BUCKETS}+` : String(i + 1),
      firstClicks: n,
      share: ratio(n, c.first_clicks),
    };
  });
}
