import { ValidationError } from '../../common/errors.js';
import { DAY_MS } from '../../common/time.js';
import { HOUR_MS } from './counters.js';

/**
 * The request window: the [from, to) a page asks about, in whole UTC hours, and its buckets. (Not
 * the precomputed spans of analytics_query_windows: fold/spans.ts.)
 */

export const MAX_WINDOW_DAYS = 400;
export const DEFAULT_WINDOW_DAYS = 7;

/** A request's window in whole UTC hours: [fromHour, toHour). */
export interface RequestWindow {
  fromHour: number;
  toHour: number;
}

/** from/to as sent (ISO date-times, validated by the schema); default the last 7 days before now. */
export function resolveWindow(query: { from?: string; to?: string }, now: number): RequestWindow {
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
export function bucketStarts(w: RequestWindow, interval: 'hour' | 'day'): number[] {
  const step = interval === 'day' ? DAY_MS : HOUR_MS;
  const first = Math.floor(w.fromHour / step) * step;
  const out: number[] = [];
  for (let t = first; t < w.toHour; t += step) out.push(t);
  return out;
}

export const bucketOf = (hour: number, interval: 'hour' | 'day'): number =>
  interval === 'day' ? Math.floor(hour / DAY_MS) * DAY_MS : hour;

export const iso = (ms: number): string => new Date(ms).toISOString();
