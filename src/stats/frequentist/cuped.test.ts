import { describe, expect, it } from 'vitest';
import { expectClose, expectClosePair, loadFixture } from '../../../test/support/stats-fixtures.js';
import { cupedTest, estimateCupedEffect } from './cuped.js';
import { welchTest } from './frequentist.js';
import { meanSums } from './moments.js';
import type { CupedSums } from '../types.js';

interface CupedCase {
  name: string;
  alpha: number;
  control: CupedSums;
  variant: CupedSums;
  expected: {
    theta: number;
    controlMean: number;
    variantMean: number;
    absoluteLift: number;
    se: number;
    df: number;
    pValue: number;
    ci: [number, number];
    relativeLift: number;
    relativeSe: number;
    relativeCi: [number, number];
    relativePValue: number;
    varianceReduction: number;
    unadjustedSe: number;
  };
}

describe('CUPED against numpy regression on raw per-session data', () => {
  it.each(loadFixture<CupedCase>('cuped').map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = cupedTest(c.control, c.variant, { alpha: c.alpha });
    const e = c.expected;
    expect(r.reason).toBeNull();
    expectClose(r.theta, e.theta, 'theta', 1e-6, 1e-10);
    expectClose(r.controlMean, e.controlMean, 'controlMean');
    expectClose(r.variantMean, e.variantMean, 'variantMean');
    expectClose(r.absoluteLift, e.absoluteLift, 'absoluteLift');
    expectClose(r.se, e.se, 'se');
    expectClose(r.df, e.df, 'df');
    expectClose(r.pValue, e.pValue, 'pValue');
    expectClosePair(r.ci, e.ci, 'ci');
    expectClose(r.relativeLift, e.relativeLift, 'relativeLift');
    const rel = cupedTest(c.control, c.variant, { alpha: c.alpha, scale: 'relative' });
    expect(rel.reason).toBeNull();
    expectClose(rel.relativeSe, e.relativeSe, 'relativeSe');
    expectClosePair(rel.relativeCi, e.relativeCi, 'relativeCi');
    expectClose(rel.pValue, e.relativePValue, 'relative pValue');
    expectClose(r.varianceReduction, e.varianceReduction, 'varianceReduction', 1e-6, 1e-9);
    // The unadjusted side of the comparison is the plain delta-method Welch test.
    expectClose(welchTest(c.control, c.variant).se, e.unadjustedSe, 'unadjusted se');
  });
});

describe('CUPED edge cases', () => {
  const withCovariate = (n: number, sum: number, sumSq: number): CupedSums => ({
    ...meanSums(n, sum, sumSq),
    sumC: sum,
    sumC2: sumSq,
    sumXC: sumSq,
    sumYC: sum,
  });

  it('falls back to the unadjusted effect with a reason for an empty arm', () => {
    const e = estimateCupedEffect(withCovariate(0, 0, 0), withCovariate(10, 20, 50));
    expect(e.reason).toBe('EMPTY_ARM');
    expect(e.theta).toBeNull();
    expect(e.varianceReduction).toBeNull();
  });

  it('does not adjust an arm whose metric has no variance (covariate noise would not make it testable)', () => {
    const constant: CupedSums = { ...meanSums(10, 0, 0), sumC: 5, sumC2: 9, sumXC: 0, sumYC: 5 };
    const e = estimateCupedEffect(constant, withCovariate(12, 30, 90));
    expect(e.reason).toBe('ZERO_VARIANCE');
    expect(e.theta).toBeNull();
  });

  it('reports impossible covariate sums as invalid input', () => {
    const impossible: CupedSums = { ...withCovariate(10, 20, 50), sumC: 20, sumC2: 1 };
    expect(estimateCupedEffect(impossible, withCovariate(12, 30, 90)).reason).toBe('INVALID_INPUT');
  });

  it('removes all variance when the covariate equals the metric', () => {
    const e = estimateCupedEffect(withCovariate(10, 20, 50), withCovariate(12, 30, 90));
    expectClose(e.theta, 1, 'theta');
    expectClose(e.varianceReduction, 1, 'reduction');
    expect(cupedTest(withCovariate(10, 20, 50), withCovariate(12, 30, 90)).reason).toBe('ZERO_VARIANCE');
  });
});
