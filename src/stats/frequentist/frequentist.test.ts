import { describe, expect, it } from 'vitest';
import { expectClose, expectClosePair, loadFixture } from '../../../test/support/stats-fixtures.js';
import { welchTest } from './frequentist.js';
import { armMoments, estimateEffect, meanSums, proportionSums } from './moments.js';
import { proportionsZTest } from './proportions.js';
import type { RatioSums } from '../types.js';

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
    relativePValue: number | null;
    relativeReason: string | null;
    controlVariance?: number;
    variantVariance?: number;
  };
}

/** Both scales: each result carries only its own scale's interval, standard error and p-value. */
function checkWelch(c: WelchCase): void {
  const e = c.expected;
  const r = welchTest(c.control, c.variant, { alpha: c.alpha });
  expect(r.scale).toBe('absolute');
  expect(r.reason).toBe(e.reason);
  expectClose(r.controlMean, e.controlMean, 'controlMean');
  expectClose(r.variantMean, e.variantMean, 'variantMean');
  expectClose(r.absoluteLift, e.absoluteLift, 'absoluteLift');
  expectClose(r.estimate, e.absoluteLift, 'estimate');
  expectClose(r.se, e.se, 'se');
  expectClose(r.df, e.df, 'df');
  expectClose(r.pValue, e.pValue, 'pValue');
  expectClosePair(r.ci, e.ci, 'ci');
  expectClosePair(r.interval, e.ci, 'interval');
  expect(r.relativeCi).toBeNull();
  expect(r.relativeSe).toBeNull();
  expectClose(r.relativeLift, e.relativeLift, 'relativeLift');
  expect(r.otherScale.scale).toBe('relative');
  expectClose(r.otherScale.estimate, e.relativeLift, 'other-scale estimate');

  const rel = welchTest(c.control, c.variant, { alpha: c.alpha, scale: 'relative' });
  expect(rel.scale).toBe('relative');
  expect(rel.reason).toBe(e.relativeReason);
  expectClose(rel.estimate, e.relativeLift, 'relative estimate');
  expectClose(rel.relativeSe, e.relativeSe, 'relativeSe');
  expectClose(rel.pValue, e.relativePValue, 'relative pValue');
  expectClosePair(rel.relativeCi, e.relativeCi, 'relativeCi');
  expectClosePair(rel.interval, e.relativeCi, 'relative interval');
  expect(rel.ci).toBeNull();
  expect(rel.se).toBeNull();
  expectClose(rel.otherScale.estimate, e.absoluteLift, 'other-scale absolute estimate');
  for (const result of [r, rel]) for (const v of Object.values(result)) if (typeof v === 'number') expect(Number.isNaN(v)).toBe(false);
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
    ['control without conversions', proportionSums(0, 1000), proportionSums(1, 1000), 'ZERO_VARIANCE'],
    ['no conversions at all', proportionSums(0, 1000), proportionSums(0, 1000), 'ZERO_VARIANCE'],
    ['impossible sums', meanSums(2, 10, 1), ok, 'INVALID_INPUT'],
  ];
  it.each(inputs)('%s', (_name, control, variant, reason) => {
    const r = welchTest(control, variant);
    expect(r.reason).toBe(reason);
    expect(r.significant).toBe(false);
    for (const v of Object.values(r)) if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
  });

  it('keeps the absolute test when only the relative lift is undefined', () => {
    const control = meanSums(100, 0, 100); // mean 0, variance 100/99
    const variant = meanSums(100, 30, 130);
    const r = welchTest(control, variant);
    expect(r.pValue).not.toBeNull();
    expect(r.reason).toBeNull();
    expect(r.relativeLift).toBeNull();
    expect(r.otherScale).toEqual({ scale: 'relative', estimate: null, reason: 'ZERO_CONTROL_MEAN' });
    const relative = welchTest(control, variant, { scale: 'relative' });
    expect(relative.pValue).toBeNull();
    expect(relative.reason).toBe('ZERO_CONTROL_MEAN');
    expect(relative.otherScale.estimate).toBeCloseTo(0.3, 12);
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
