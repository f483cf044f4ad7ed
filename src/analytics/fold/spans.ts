import { DAY_MS } from '../../common/time.js';
import { HOUR_MS } from '../model/counters.js';

/**
 * The standard spans of analytics_query_windows (migration 0021): per-query counters summed over
 * [anchor − span, anchor), kept by the fold. 7 and 30 days are the dashboard's windows; 14 and 60
 * days make their previous windows (the 14-day total minus the 7-day one) as cheap.
 */
export const SPANS_MS: readonly number[] = [7, 14, 30, 60].map((d) => d * DAY_MS);

/**
 * The spans end this long before the current hour: feedback of the last hours (where nearly every
 * late event lands) then only touches hour rows, and a request reads those hours as an edge.
 */
export const SPAN_LAG_MS = 3 * HOUR_MS;

/** The anchor the fold moves the spans to at `now`. */
export const spanAnchorAt = (now: number): number => Math.floor(now / HOUR_MS) * HOUR_MS - SPAN_LAG_MS;

/** Hours read from analytics_query_hours with a sign: +1 adds [fromHour, toHour), −1 subtracts it. */
export interface SignedRange {
  fromHour: number;
  toHour: number;
  sign: 1 | -1;
}

/** A window as span totals (ending at the anchor) plus or minus hour ranges at its edges. */
export interface RangePlan {
  /** span added (its [anchor − span, anchor) starts at or near the window's start) */
  add: number;
  /** span subtracted (0: none), ends the range at anchor − sub */
  sub: number;
  edges: SignedRange[];
}

const nearest = (anchor: number, at: number): number => {
  let best = 0;
  for (const s of SPANS_MS) if (Math.abs(at - (anchor - s)) < Math.abs(at - (anchor - best))) best = s;
  return best;
};

/**
 * How to read the per-query sums of [fromHour, toHour): from the span totals when the window's
 * edges are close to spans ending at the anchor (the hours between them read from the hourly rows,
 * with a sign), or null to sum the hourly rows directly. The sums are exact either way:
 * sum[from, to) = sum[from, P) + (span(add) − span(sub)) + sum[Q, to) with P = anchor − add,
 * Q = anchor − sub and a sum over a reversed range counted negative.
 */
export function planRange(anchor: number | null, fromHour: number, toHour: number): RangePlan | null {
  if (anchor === null || toHour <= fromHour) return null;
  const add = nearest(anchor, fromHour);
  const sub = nearest(anchor, toHour);
  if (add <= sub) return null;
  const p = anchor - add;
  const q = anchor - sub;
  const edges: SignedRange[] = [];
  if (fromHour < p) edges.push({ fromHour, toHour: p, sign: 1 });
  if (fromHour > p) edges.push({ fromHour: p, toHour: fromHour, sign: -1 });
  if (toHour > q) edges.push({ fromHour: q, toHour, sign: 1 });
  if (toHour < q) edges.push({ fromHour: toHour, toHour: q, sign: -1 });
  const edgeHours = edges.reduce((s, e) => s + e.toHour - e.fromHour, 0);
  // The span totals hold about one row per query; the edges one per query and hour: worth it only
  // when the edges are a small part of the window.
  if (edgeHours * 4 > toHour - fromHour) return null;
  return { add, sub, edges };
}
