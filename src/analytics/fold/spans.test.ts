import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../common/time.js';
import { mulberry32 } from '../../random/index.js';
import { HOUR_MS } from '../model/counters.js';
import { SPANS_MS, planRange, spanAnchorAt } from './spans.js';

// The plan of how a request window is read from the precomputed spans, without a database.

const ANCHOR = Date.parse('2026-11-20T09:00:00Z');

describe('spanAnchorAt', () => {
  it('ends the spans three whole hours before the current hour', () => {
    expect(spanAnchorAt(Date.parse('2026-11-20T12:59:59Z'))).toBe(ANCHOR);
    expect(spanAnchorAt(Date.parse('2026-11-20T13:00:00Z'))).toBe(ANCHOR + HOUR_MS);
  });
});

describe('planRange', () => {
  it('reads nothing from spans before the fold has placed them, or for an empty window', () => {
    expect(planRange(null, ANCHOR - 7 * DAY_MS, ANCHOR)).toBeNull();
    expect(planRange(ANCHOR, ANCHOR, ANCHOR)).toBeNull();
  });

  it('reads a window that is a span ending at the anchor as that span alone', () => {
    for (const span of SPANS_MS) expect(planRange(ANCHOR, ANCHOR - span, ANCHOR)).toEqual({ add: span, sub: 0, edges: [] });
  });

  it("reads the dashboard's last 7 days (ending now, 3 h past the anchor) as the 7-day span plus the hours at each edge", () => {
    const now = ANCHOR + 3 * HOUR_MS;
    expect(planRange(ANCHOR, now - 7 * DAY_MS, now)).toEqual({
      add: 7 * DAY_MS,
      sub: 0,
      edges: [
        { fromHour: ANCHOR - 7 * DAY_MS, toHour: now - 7 * DAY_MS, sign: -1 },
        { fromHour: ANCHOR, toHour: now, sign: 1 },
      ],
    });
  });

  it('reads the previous 7 days as the 14-day span minus the 7-day one', () => {
    expect(planRange(ANCHOR, ANCHOR - 14 * DAY_MS, ANCHOR - 7 * DAY_MS)).toEqual({ add: 14 * DAY_MS, sub: 7 * DAY_MS, edges: [] });
  });

  it('sums the hour rows directly when the edges would be more than a quarter of the window', () => {
    expect(planRange(ANCHOR, ANCHOR - 2 * DAY_MS, ANCHOR)).toBeNull();
    expect(planRange(ANCHOR, ANCHOR - 100 * DAY_MS, ANCHOR - 90 * DAY_MS)).toBeNull();
  });

  it('is exact: span totals plus and minus the edges equal the hours summed, for random windows (seeded)', () => {
    const random = mulberry32(7);
    // A value per hour over the 90 days before the anchor and a day after it.
    const first = ANCHOR - 90 * DAY_MS;
    const hours = Array.from({ length: 91 * 24 }, () => Math.floor(random() * 100));
    const sum = (from: number, to: number) => {
      let s = 0;
      for (let h = from; h < to; h += HOUR_MS) s += hours[(h - first) / HOUR_MS]!;
      return s;
    };
    const span = (length: number) => sum(ANCHOR - length, ANCHOR);
    let planned = 0;
    for (let i = 0; i < 500; i += 1) {
      const length = (1 + Math.floor(random() * 60)) * DAY_MS + Math.floor(random() * 24) * HOUR_MS;
      const toHour = ANCHOR + 24 * HOUR_MS - Math.floor(random() * 30 * 24) * HOUR_MS;
      const fromHour = Math.max(first, toHour - length);
      const plan = planRange(ANCHOR, fromHour, toHour);
      if (!plan) continue;
      planned += 1;
      const viaSpans =
        span(plan.add) - (plan.sub > 0 ? span(plan.sub) : 0) + plan.edges.reduce((s, e) => s + e.sign * sum(e.fromHour, e.toHour), 0);
      expect(viaSpans).toBe(sum(fromHour, toHour));
      // Never more edge hours than a quarter of the window.
      expect(plan.edges.reduce((s, e) => s + e.toHour - e.fromHour, 0) * 4).toBeLessThanOrEqual(toHour - fromHour);
    }
    expect(planned).toBeGreaterThan(50);
  });
});
