import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AnalyticsCounterColumn } from '../../storage/schema.js';
import { COUNTERS, HISTOGRAM_BUCKETS, histogramColumn, recognisedKeys, type Counter } from './counters.js';

describe('analytics counters', () => {
  it('are the table types’ counter columns, each once: eleven sums and a first-click bucket per position up to 21', () => {
    // Until storage/schema.ts derives its AnalyticsCounterColumn from vocabulary/analytics-counters.ts.
    expectTypeOf<Counter>().toEqualTypeOf<AnalyticsCounterColumn>();
    expect(new Set(COUNTERS).size).toBe(COUNTERS.length);
    expect(COUNTERS.filter((c) => c.startsWith('fc_'))).toHaveLength(HISTOGRAM_BUCKETS);
    expect(COUNTERS).toHaveLength(11 + HISTOGRAM_BUCKETS);
  });

  it('bucket a first click by position: below 1 in the first, beyond 20 in the last', () => {
    expect([0, 1, 2.7, 20, 21, 400].map(histogramColumn)).toEqual(['fc_01', 'fc_01', 'fc_02', 'fc_20', 'fc_21', 'fc_21']);
  });
});

describe('recognisedKeys', () => {
  it('reads queryText (trimmed, at most 512 characters) and a non-negative resultCount from the extra metadata', () => {
    expect(recognisedKeys(JSON.stringify({ queryText: '  Running Shoes ', resultCount: 0, team: 'x' }))).toEqual({
      queryText: 'Running Shoes',
      resultCount: 0,
    });
    expect(recognisedKeys(JSON.stringify({ queryText: 'x'.repeat(600) })).queryText).toHaveLength(512);
  });

  it('ignores what is missing, blank, of the wrong type or not JSON', () => {
    const none = { queryText: null, resultCount: null };
    expect(recognisedKeys(null)).toEqual(none);
    expect(recognisedKeys('{not json')).toEqual(none);
    expect(recognisedKeys('null')).toEqual(none);
    expect(recognisedKeys(JSON.stringify({ queryText: '   ', resultCount: -1 }))).toEqual(none);
    expect(recognisedKeys(JSON.stringify({ queryText: 7, resultCount: '3' }))).toEqual(none);
  });
});
