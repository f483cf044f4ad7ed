import { describe, expect, it } from 'vitest';
import { expectClose, expectClosePair, loadFixture } from '../../../test/support/stats-fixtures.js';
import { welchTest } from '../frequentist/frequentist.js';
import { meanSums } from '../frequentist/moments.js';
import { sequentialRho, sequentialTest } from './sequential.js';
import type { RatioSums } from '../types.js';

interface SequentialCase {
  name: string;
  alpha: number;
  tuningParameter: number;
  control: RatioSums;
  variant: RatioSums;
  expected: {
    rho: number;
    absoluteLift: number;
    se: number;
    ci: [number, number];
    pValue: number;
    relativeSe: number;
    relativeCi: [number, number];
    relativePValue: number;
  };
}

describe('asymptotic confidence sequences against an independent python implementation', () => {
  it.each(loadFixture<SequentialCase>('sequential').map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = sequentialTest(c.control, c.variant, { alpha: c.alpha, tuningParameter: c.tuningParameter });
    expectClose(sequentialRho(c.alpha, c.tuningParameter), c.expected.rho, 'rho');
    expectClose(r.absoluteLift, c.expected.absoluteLift, 'lift');
    expectClose(r.se, c.expected.se, 'se');
    expectClosePair(r.ci, c.expected.ci, 'ci');
    // The python side finds p by root-finding on alpha, so this checks the closed form too.
    expectClose(r.pValue, c.expected.pValue, 'pValue', 1e-6, 1e-300);
    expect(r.relativeCi).toBeNull();
    expect(r.df).toBeNull();
    const rel = sequentialTest(c.control, c.variant, { alpha: c.alpha, tuningParameter: c.tuningParameter, scale: 'relative' });
    expectClose(rel.relativeSe, c.expected.relativeSe, 'relativeSe');
    expectClosePair(rel.relativeCi, c.expected.relativeCi, 'relativeCi');
    expectClose(rel.pValue, c.expected.relativePValue, 'relative pValue', 1e-6, 1e-300);
  });
});

describe('sequential properties', () => {
  const control = meanSums(4000, 4000 * 2, 4000 * 5);
  const variant = meanSums(4100, 4100 * 2.06, 4100 * 5.2);

  it('is always wider than the fixed-horizon interval', () => {
    const seq = sequentialTest(control, variant);
    const fixed = welchTest(control, variant);
    expect(seq.ci && fixed.ci && seq.ci[1] - seq.ci[0] > fixed.ci[1] - fixed.ci[0]).toBe(true);
    expect(seq.pValue ?? 0).toBeGreaterThan(fixed.pValue ?? 1);
  });

  it('declares significance exactly when the interval excludes zero', () => {
    for (const alpha of [0.01, 0.05, 0.2]) {
      const r = sequentialTest(control, variant, { alpha });
      const excludes = r.ci !== null && (r.ci[0] > 0 || r.ci[1] < 0);
      expect(r.significant).toBe(excludes);
    }
  });

  it('returns reasons, not NaN, on edge cases', () => {
    expect(sequentialTest(meanSums(0, 0, 0), variant).reason).toBe('EMPTY_ARM');
    expect(sequentialTest(control, variant, { tuningParameter: 0 }).reason).toBe('INVALID_INPUT');
    expect(sequentialTest(meanSums(5, 5, 5), meanSums(5, 10, 20)).reason).toBe('ZERO_VARIANCE');
  });
});
