import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../common/errors.js';
import { DAY_MS } from '../../common/time.js';
import { HOUR_MS } from './counters.js';
import { bucketOf, bucketStarts, resolveWindow } from './request-window.js';

const NOW = Date.parse('2026-11-20T10:30:00Z');

describe('resolveWindow', () => {
  it('defaults to the 7 days before now, widened to whole UTC hours', () => {
    expect(resolveWindow({}, NOW)).toEqual({
      fromHour: Date.parse('2026-11-13T10:00:00Z'),
      toHour: Date.parse('2026-11-20T11:00:00Z'),
    });
  });

  it('takes from and to as sent; from alone runs to now, to alone starts 7 days before it', () => {
    expect(resolveWindow({ from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z' }, NOW)).toEqual({
      fromHour: Date.parse('2026-11-01T00:00:00Z'),
      toHour: Date.parse('2026-11-02T00:00:00Z'),
    });
    expect(resolveWindow({ from: '2026-11-19T00:00:00Z' }, NOW).toHour).toBe(Date.parse('2026-11-20T11:00:00Z'));
    expect(resolveWindow({ to: '2026-11-10T00:00:00Z' }, NOW).fromHour).toBe(Date.parse('2026-11-03T00:00:00Z'));
  });

  it('refuses a window that is reversed, longer than 400 days or not dates, naming the field', () => {
    const refused = (query: { from?: string; to?: string }) => {
      try {
        resolveWindow(query, NOW);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).message + JSON.stringify(error);
      }
      throw new Error('accepted');
    };
    expect(refused({ from: '2026-11-20T00:00:00Z', to: '2026-11-19T00:00:00Z' })).toContain('/from');
    expect(refused({ from: '2025-01-01T00:00:00Z' })).toContain('400 days');
    expect(refused({ from: '2026-11-01T00:00:00Z', to: 'yesterday' })).toContain('/to: is not a date-time');
    expect(refused({ from: 'last week' })).toContain('/from: is not a date-time');
  });
});

describe('buckets', () => {
  it('starts day buckets at the UTC day of the window start and hour buckets at each hour', () => {
    const w = { fromHour: Date.parse('2026-11-01T20:00:00Z'), toHour: Date.parse('2026-11-03T01:00:00Z') };
    expect(bucketStarts(w, 'day')).toEqual([0, 1, 2].map((d) => Date.parse('2026-11-01T00:00:00Z') + d * DAY_MS));
    expect(bucketStarts(w, 'hour')).toHaveLength(29);
    expect(bucketOf(w.fromHour + HOUR_MS, 'day')).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(bucketOf(w.fromHour + HOUR_MS, 'hour')).toBe(w.fromHour + HOUR_MS);
  });
});
