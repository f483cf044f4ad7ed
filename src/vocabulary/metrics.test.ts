import { describe, expect, it } from 'vitest';
import { UNIT_STAT_COLUMNS as MIGRATION_0002_COLUMNS } from '../storage/migrations/0001-0019/0002-running-experiments.js';
import { METRIC_CATALOGUE, METRIC_NAMES, UNIT_STAT_COLUMNS, UNIT_STAT_FOLDS, emptyStats, linearValue } from './metrics.js';

const item = { userAction: null, rating: null, position: null, dwellTime: null, timeToClick: null, scrollDepth: null };
const context = { item, opensSearch: false, firstClickOfSearch: false, firstConversion: false };

describe('metric catalogue', () => {
  it('derives each unit-stat column once, and keeps every column migration 0002 created', () => {
    expect(new Set(UNIT_STAT_COLUMNS).size).toBe(UNIT_STAT_COLUMNS.length);
    expect(UNIT_STAT_COLUMNS).toEqual(expect.arrayContaining([...MIGRATION_0002_COLUMNS]));
    expect(Object.keys(emptyStats()).sort()).toEqual([...UNIT_STAT_COLUMNS].sort());
  });

  it('reads only columns it defines (or the constant one) in every X and Y', () => {
    for (const m of METRIC_CATALOGUE) {
      for (const [column] of [...m.x, ...m.y]) expect([...UNIT_STAT_COLUMNS, 'one'], `${m.name} reads ${column}`).toContain(column);
    }
    expect(METRIC_NAMES).toEqual(METRIC_CATALOGUE.map((m) => m.name));
  });

  it('folds an item that carries nothing into nothing', () => {
    for (const column of UNIT_STAT_COLUMNS) expect(UNIT_STAT_FOLDS[column](context), column).toBe(0);
  });

  it('evaluates signed terms: abandonment is searches minus searches with a click; conversion over the constant 1', () => {
    const stats = { ...emptyStats(), searches: 5, searches_with_click: 2, conversions: 1 };
    const abandonment = METRIC_CATALOGUE.find((m) => m.name === 'abandonment_rate')!;
    expect(linearValue(stats, abandonment.x)).toBe(3);
    const conversion = METRIC_CATALOGUE.find((m) => m.name === 'conversion_rate')!;
    expect([linearValue(stats, conversion.x), linearValue(stats, conversion.y)]).toEqual([1, 1]);
  });
});
