import { describe, expect, it } from 'vitest';
import { expectClose, expectClosePair, loadFixture } from '../../test/fixtures/stats/load.js';
import { welchTest } from './frequentist.js';
import { armMoments, estimateEffect, meanSums, proportionSums } from './moments.js';
import { proportionsZTest } from './proportions.js';
import type { RatioSums } from './types.js';

interface WelchCase {
  name: string;
  alpha: number;
  control: RatioSums;
  variant: RatioSums;
  expected: {
    controlMean: number | null;
    variantMean: number | null;
    absoluteLift: number | null;
    se: number | null;
    df: number | null;
    pValue: number | null;
    ci: [number, number] | null;
    relativeLift: number | null;
    relativeSe: number | null;
    relativeCi: [number, number] | null;
    reason: string | null;
    controlVariance?: number;
    variantVariance?: number;
  };
}

function checkWelch(c: WelchCase): void {
  const r = welchTest(c.control, c.variant, { alpha: c.alpha });
  const e = c.expected;
  expect(r.reason).toBe(e.reason);
  expectClose(r.controlMean, e.controlMean, 'controlMean');
  expectClose(r.variantMean, e.variantMean, 'variantMean');
  expectClose(r.absoluteLift, e.absoluteLift, 'absoluteLift');
  expectClose(r.se, e.se, 'se');
  expectClose(r.df, e.df, 'df');
  expectClose(r.pValue, e.pValue, 'pValue');
  expectClosePair(r.ci, e.ci, 'ci');
  expectClose(r.relativeLift, e.relativeLift, 'relativeLift');
  expectClose(r.relativeSe, e.relativeSe, 'relativeSe');
  expectClosePair(r.relativeCi, e.relativeCi, 'relativeCi');
  for (const v of Object.values(r)) if (typeof v === 'number') expect(Number.isNaN(v)).toBe(false);
}

describe('welchTest against scipy.stats.ttest_ind_from_stats(equal_var=False)', () => {
  const cases = loadFixture<WelchCase>('welch');
  it('has at least 50 random and edge-case inputs', () => expect(cases.length).toBeGreaterThanOrEqual(50));
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => checkWelch(c));
});

describe('delta-method ratio metrics against a raw-data numpy computation', () => {
  const cases = loadFixture<WelchCase>('ratio');
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expectClose(armMoments(c.control).variance, c.expected.controlVariance ?? null, 'control variance');
    expectClose(armMoments(c.variant).variance, c.expected.variantVariance ?? null, 'variant variance');
    checkWelch(c);
  });
});

interface ProportionCase {
  name: string;
  control: [number, number];
  variant: [number, number];
  expected: { z: number; pValue: number; zUnpooled: number; pValueUnpooled: number };
}

describe('proportionsZTest against statsmodels', () => {
  it.each(loadFixture<ProportionCase>('proportions').map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const pooled = proportionsZTest(c.control[0], c.control[1], c.variant[0], c.variant[1]);
    expectClose(pooled.z, c.expected.z, 'z');
    expectClose(pooled.pValue, c.expected.pValue, 'p');
    const wald = proportionsZTest(c.control[0], c.control[1], c.variant[0], c.variant[1], { pooled: false });
    expectClose(wald.z, c.expected.zUnpooled, 'z unpooled');
    expectClose(wald.pValue, c.expected.pValueUnpooled, 'p unpooled');
  });

  it('returns a reason instead of NaN for empty or constant arms', () => {
    expect(proportionsZTest(0, 0, 3, 10)).toEqual({ z: null, pValue: null, reason: 'EMPTY_ARM' });
    expect(proportionsZTest(0, 10, 0, 12)).toEqual({ z: null, pValue: null, reason: 'ZERO_VARIANCE' });
  });
});

describe('edge cases never throw or return NaN', () => {
  const ok = meanSums(10, 20, 50);
  const inputs: Array<[string, RatioSums, RatioSums, string]> = [
    ['empty control', meanSums(0, 0, 0), ok, 'EMPTY_ARM'],
    ['one unit', meanSums(1, 3, 9), ok, 'TOO_FEW_UNITS'],
    ['zero denominator', { n: 5, sumX: 0, sumY: 0, sumX2: 0, sumY2: 0, sumXY: 0 }, ok, 'ZERO_DENOMINATOR'],
    ['NaN input', meanSums(5, Number.NaN, 3), ok, 'INVALID_INPUT'],
    ['negative n', meanSums(-2, 1, 1), ok, 'INVALID_INPUT'],
    ['zero control mean', proportionSums(0, 1000), proportionSums(1, 1000), 'ZERO_CONTROL_MEAN'],
    ['no conversions at all', proportionSums(0, 1000), proportionSums(0, 1000), 'ZERO_VARIANCE'],
  ];
  it.each(inputs)('%s', (_name, control, variant, reason) => {
    const r = welchTest(control, variant);
    expect(r.reason).toBe(reason);
    expect(r.significant).toBe(false);
    for (const v of Object.values(r)) if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
  });

  it('keeps the absolute test when only relative lift is undefined', () => {
    const r = welchTest(proportionSums(0, 1000), proportionSums(10, 1000));
    expect(r.pValue).not.toBeNull();
    expect(r.relativeLift).toBeNull();
    expect(r.relativeCi).toBeNull();
  });

  it('rejects an invalid alpha with a reason', () => {
    expect(welchTest(ok, ok, { alpha: 1.5 }).reason).toBe('INVALID_INPUT');
  });

  it('sets improved according to the metric direction', () => {
    const control = proportionSums(3000, 10000);
    const variant = proportionSums(3300, 10000);
    expect(welchTest(control, variant).improved).toBe(true);
    expect(welchTest(control, variant, { direction: 'lower' }).improved).toBe(false);
    expect(welchTest(variant, control, { direction: 'lower' }).improved).toBe(true);
  });

  it('treats a mean as the ratio with denominator 1', () => {
    const e = estimateEffect(meanSums(4, 10, 30), meanSums(3, 9, 29));
    expectClose(e.absoluteLift, 0.5, 'lift');
  });
});
