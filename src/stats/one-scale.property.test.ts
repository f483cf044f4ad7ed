/**
 * The one-scale property over many random experiments (fast-check, fixed seed): on either scale and with
 * either method, significant ⇔ the reported interval excludes 0 ⇔ p < α; after a multiple-testing
 * correction, significant ⇔ the adjusted interval excludes 0 ⇔ adjusted p < α; and no result carries
 * an interval on the other scale.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeEffect, type FrequentistResult } from './frequentist/frequentist.js';
import { excludesZero } from './frequentist/intervals.js';
import { estimateEffect, meanSums } from './frequentist/moments.js';
import { correctComparisons, type Correction } from './frequentist/multiple-testing.js';
import { compareProportions } from './frequentist/proportions.js';
import type { RatioSums, Scale, TestMethod } from './types.js';

const SEED = 13;
const RUNS = 2000;

/** Sums of an arm with the given sample mean and sample variance (any data with those moments). */
const armSums = (n: number, mean: number, variance: number): RatioSums => meanSums(n, n * mean, (n - 1) * variance + n * mean * mean);

const arm = fc.record({
  n: fc.integer({ min: 2, max: 400 }),
  mean: fc.double({ min: -5, max: 5, noNaN: true }),
  sd: fc.double({ min: 0.01, max: 10, noNaN: true }),
});
const options = fc.record({
  alpha: fc.constantFrom(0.01, 0.05, 0.1, 0.2),
  scale: fc.constantFrom<Scale>('absolute', 'relative'),
  method: fc.constantFrom<TestMethod>('fixed', 'sequential'),
});

function checkConsistent(r: FrequentistResult): void {
  const excludes = excludesZero(r.interval);
  expect(r.significant).toBe(excludes);
  expect(r.significant).toBe(r.pValue !== null && r.pValue < r.alpha);
  if (r.pValue === null) expect(r.interval).toBeNull();
  expect(r.ci === null || r.relativeCi === null).toBe(true);
  expect(r.interval).toEqual(r.scale === 'absolute' ? r.ci : r.relativeCi);
  if (r.improved !== null) expect(r.improved).toBe(r.significant && (r.direction === 'higher' ? r.estimate! > 0 : r.estimate! < 0));
}

describe('one scale for every number', () => {
  it('means and ratios: significant ⇔ interval excludes 0 ⇔ p < α, both scales, both methods', () => {
    let tested = 0;
    fc.assert(
      fc.property(arm, arm, options, (a, b, o) => {
        const r = analyzeEffect(estimateEffect(armSums(a.n, a.mean, a.sd ** 2), armSums(b.n, b.mean, b.sd ** 2)), o);
        if (r.pValue !== null) tested += 1;
        checkConsistent(r);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(tested).toBeGreaterThan(RUNS / 2);
  });

  it('proportions (score method, and the confidence sequence): the same three-way agreement', () => {
    const proportions = fc.record({
      nA: fc.integer({ min: 2, max: 300 }),
      nB: fc.integer({ min: 2, max: 300 }),
      pA: fc.double({ min: 0, max: 1, noNaN: true }),
      pB: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(proportions, options, ({ nA, nB, pA, pB }, o) => {
        checkConsistent(compareProportions(Math.round(pA * nA), nA, Math.round(pB * nB), nB, o));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('after Holm, Benjamini–Hochberg or Bonferroni: significant ⇔ adjusted interval excludes 0 ⇔ adjusted p < α', () => {
    const family = fc.array(fc.tuple(arm, arm), { minLength: 1, maxLength: 8 });
    const correction = fc.constantFrom<Correction>('holm', 'benjamini-hochberg', 'bonferroni', 'none');
    fc.assert(
      fc.property(family, options, correction, (pairs, o, c) => {
        const results = pairs.map(([a, b]) =>
          analyzeEffect(estimateEffect(armSums(a.n, a.mean, a.sd ** 2), armSums(b.n, b.mean, b.sd ** 2)), o),
        );
        correctComparisons(results, c, o.alpha).forEach((adjusted, i) => {
          expect(adjusted.significant).toBe(excludesZero(adjusted.adjustedInterval));
          expect(adjusted.significant).toBe(adjusted.adjustedPValue !== null && adjusted.adjustedPValue < o.alpha);
          // A correction never makes a comparison significant that was not significant on its own.
          if (adjusted.significant) expect(results[i]!.significant).toBe(true);
        });
      }),
      { seed: SEED, numRuns: RUNS / 4 },
    );
  });
});
