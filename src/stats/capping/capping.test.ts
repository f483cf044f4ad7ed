import { describe, expect, it } from 'vitest';
import { expectClose, loadFixture } from '../../../test/support/stats-fixtures.js';
import { capArms, capThreshold, percentile, type CapSpec, type UnitValues } from './capping.js';
import type { RatioSums } from '../types.js';

interface CappingCase {
  name: string;
  spec: CapSpec;
  arms: UnitValues[];
  expected: { cap: number; arms: { sums: RatioSums; uncapped: RatioSums; cappedUnits: number }[] };
}

const SUM_FIELDS = ['n', 'sumX', 'sumY', 'sumX2', 'sumY2', 'sumXY'] as const;

describe('capping against numpy (pooled quantile, per-unit caps, sums of the capped arrays)', () => {
  it.each(loadFixture<CappingCase>('capping').map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = capArms(c.arms, c.spec);
    expect(r.reason).toBeNull();
    expectClose(r.cap, c.expected.cap, 'cap', 1e-12);
    r.arms.forEach((arm, i) => {
      const e = c.expected.arms[i]!;
      for (const f of SUM_FIELDS) {
        expectClose(arm.sums[f], e.sums[f], `capped ${f}`, 1e-10);
        expectClose(arm.uncapped[f], e.uncapped[f], `uncapped ${f}`, 1e-10);
      }
      expect(arm.cappedUnits).toBe(e.cappedUnits);
    });
  });
});

describe('capping semantics', () => {
  it('computes the percentile like numpy / PERCENTILE_CONT', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([10, 0, 5], 0.99)).toBeCloseTo(9.9, 12);
    expect(percentile([], 0.5)).toBeNull();
  });

  it('caps a ratio metric per unit on its own ratio, leaving denominators and units without a denominator alone', () => {
    // Unit ratios 10, 10, 1000 (and one unit with no click): the 50th percentile of the ratios is 10.
    const arm = { numerators: [10, 20, 1000, 7], denominators: [1, 2, 1, 0] };
    const r = capArms([arm], { type: 'percentile', value: 0.5 });
    expect(r.cap).toBe(10);
    expect(r.arms[0]!.sums).toMatchObject({ sumX: 10 + 20 + 10 + 7, sumY: 4 });
    expect(r.arms[0]!.cappedUnits).toBe(1);
    expect(r.arms[0]!.uncapped.sumX).toBe(1037);
  });

  it('uses one cap for every arm, computed on the pooled units', () => {
    const a = { numerators: [1, 2, 3] };
    const b = { numerators: [100, 200, 300] };
    const cap = capThreshold([a, b], { type: 'percentile', value: 0.5 }).cap;
    expect(cap).toBe(percentile([1, 2, 3, 100, 200, 300], 0.5));
  });

  it('refuses invalid input with a reason', () => {
    expect(capThreshold([{ numerators: [1, Number.NaN] }], { type: 'absolute', value: 3 }).reason).toBe('INVALID_INPUT');
    expect(capThreshold([{ numerators: [1, 2], denominators: [1] }], { type: 'absolute', value: 3 }).reason).toBe('INVALID_INPUT');
    expect(capThreshold([{ numerators: [1] }], { type: 'percentile', value: 1 }).reason).toBe('INVALID_INPUT');
    expect(capThreshold([{ numerators: [] }], { type: 'percentile', value: 0.9 }).reason).toBe('EMPTY_ARM');
  });
});
