import { ValidationError } from '../../common/errors.js';
import { COUNTERS, HISTOGRAM_BUCKETS, HOUR_MS, emptyCounters, histogramColumn, type Counters } from '../model/counters.js';

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

export const DAY_MS = 24 * HOUR_MS;
export const MAX_WINDOW_DAYS = 400;
export const DEFAULT_WINDOW_DAYS = 7;

/** A window in whole UTC hours: [fromHour, toHour). */
export interface Window {
  fromHour: number;
  toHour: number;
}

/** from/to as sent (ISO date-times, validated by the schema); default the last 7 days before now. */
export function resolveWindow(query: { from?: string; to?: string }, now: number): Window {
  const to = query.to !== undefined ? Date.parse(query.to) : now;
  const from = query.from !== undefined ? Date.parse(query.from) : to - DEFAULT_WINDOW_DAYS * DAY_MS;
  if (!Number.isFinite(from)) throw ValidationError.field('/from', 'is not a date-time', 'querystring');
  if (!Number.isFinite(to)) throw ValidationError.field('/to', 'is not a date-time', 'querystring');
  if (from > to) throw ValidationError.field('/from', 'is after to', 'querystring');
  if (to - from > MAX_WINDOW_DAYS * DAY_MS)
    throw ValidationError.field('/from', `the window is longer than ${MAX_WINDOW_DAYS} days`, 'querystring');
  return { fromHour: Math.floor(from / HOUR_MS) * HOUR_MS, toHour: Math.ceil(to / HOUR_MS) * HOUR_MS };
}

/** Bucket starts of the window at the interval (UTC days or hours). */
export function bucketStarts(w: Window, interval: 'hour' | 'day'): number[] {
  const step = interval === 'day' ? DAY_MS : HOUR_MS;
  const first = Math.floor(w.fromHour / step) * step;
  const out: number[] = [];
  for (let t = first; t < w.toHour; t += step) out.push(t);
  return out;
}

export const bucketOf = (hour: number, interval: 'hour' | 'day'): number =>
  interval === 'day' ? Math.floor(hour / DAY_MS) * DAY_MS : hour;

export const iso = (ms: number): string => new Date(ms).toISOString();
