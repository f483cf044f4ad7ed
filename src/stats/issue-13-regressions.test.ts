/** Issue 13's four bugs, each with the issue's exact inputs. */
import { describe, expect, it } from 'vitest';
import { bayesianTest } from './bayesian/bayesian.js';
import { welchTest } from './frequentist/frequentist.js';
import { armMoments, meanSums, proportionSums } from './frequentist/moments.js';
import { compareProportions } from './frequentist/proportions.js';
import { sequentialTest } from './sequential/sequential.js';

describe('bug 1: an arm whose mean is zero no longer collapses the relative interval', () => {
  const control = proportionSums(1, 40);
  const variant = proportionSums(0, 40);

  it('never answers a confident zero-width relative interval from the sums', () => {
    for (const method of [welchTest, sequentialTest]) {
      const r = method(control, variant, { scale: 'relative' });
      expect(r.relativeCi).toBeNull();
      expect(r.relativeSe).toBeNull();
      expect(r.pValue).toBeNull();
      expect(r.significant).toBe(false);
      expect(r.reason).toBe('ZERO_VARIANCE');
    }
  });

  it('gives the Bayesian view a reason instead of chanceToBeatControl 0', () => {
    const r = bayesianTest(control, variant);
    expect(r.chanceToBeatControl).toBeNull();
    expect(r.reason).not.toBeNull();
  });

  it('answers with the score ratio interval for the proportion: wide, containing 0, lower end −100 %', () => {
    const r = compareProportions(1, 40, 0, 40, { scale: 'relative' });
    expect(r.estimate).toBe(-1);
    expect(r.interval![0]).toBe(-1);
    expect(r.interval![1]).toBeGreaterThan(2);
    expect(r.pValue).toBeCloseTo(0.3173, 4);
    expect(r.significant).toBe(false);
  });

  it('requires the control mean to be bounded away from zero (Fieller), not only non-zero', () => {
    // Control mean 0.05 with standard error ≈ 0.16: its own interval contains 0.
    const noisy = meanSums(40, 2, 40);
    const r = welchTest(noisy, meanSums(40, 10, 50), { scale: 'relative' });
    expect(r.reason).toBe('CONTROL_MEAN_NEAR_ZERO');
    expect(r.relativeCi).toBeNull();
    expect(bayesianTest(noisy, meanSums(40, 10, 50)).reason).toBe('CONTROL_MEAN_NEAR_ZERO');
    // The absolute scale still has its test.
    expect(welchTest(noisy, meanSums(40, 10, 50)).pValue).not.toBeNull();
  });
});

describe('bug 2: relative effects divide by |control mean|', () => {
  // Means −10 → −9.5, standard deviation 2, 1000 units per arm, higher is better.
  const n = 1000;
  const sumSquares = (mean: number) => (n - 1) * 4 + n * mean * mean;
  const control = meanSums(n, -10 * n, sumSquares(-10));
  const variant = meanSums(n, -9.5 * n, sumSquares(-9.5));

  it('reports the improvement as positive on both scales and in the Bayesian view', () => {
    const absolute = welchTest(control, variant);
    expect(absolute.absoluteLift).toBeCloseTo(0.5, 12);
    expect(absolute.pValue).toBeLessThan(1e-7);
    expect(absolute.improved).toBe(true);
    const relative = welchTest(control, variant, { scale: 'relative' });
    expect(relative.estimate).toBeCloseTo(0.05, 12);
    expect(relative.interval![0]).toBeGreaterThan(0);
    expect(relative.improved).toBe(true);
    expect(bayesianTest(control, variant).chanceToBeatControl).toBeGreaterThan(0.9999);
    expect(bayesianTest(control, variant, { direction: 'lower' }).chanceToBeatControl).toBeLessThan(1e-4);
  });
});

describe('bug 3: impossible sufficient statistics are refused', () => {
  it('answers INVALID_INPUT for Σx² < (Σx)²/n instead of p = 2e-89', () => {
    const impossible = meanSums(2, 10, 1);
    expect(armMoments(impossible).reason).toBe('INVALID_INPUT');
    for (const scale of ['absolute', 'relative'] as const) {
      const r = welchTest(impossible, meanSums(10, 20, 50), { scale });
      expect(r.reason).toBe('INVALID_INPUT');
      expect(r.pValue).toBeNull();
      expect(r.significant).toBe(false);
    }
    expect(armMoments(proportionSums(5, 3)).reason).toBe('INVALID_INPUT');
    expect(compareProportions(5, 3, 1, 10).reason).toBe('INVALID_INPUT');
  });

  it('still treats rounding error as zero variance, not as invalid', () => {
    let sum = 0;
    let sumSquares = 0;
    for (let i = 0; i < 1000; i += 1) {
      sum += 0.1;
      sumSquares += 0.01;
    }
    expect(sumSquares - (sum * sum) / 1000).not.toBe(0);
    expect(armMoments(meanSums(1000, sum, sumSquares))).toMatchObject({ variance: 0, reason: null });
  });
});

describe('bug 4: zero-variance proportion arms', () => {
  it('does not run the normal approximation on an arm with 0 of 40 conversions', () => {
    const r = welchTest(proportionSums(0, 40), proportionSums(5, 40));
    expect(r.reason).toBe('ZERO_VARIANCE');
    expect(r.significant).toBe(false);
  });

  it('uses the score method for proportions (details and references in score.test.ts)', () => {
    const r = compareProportions(0, 40, 5, 40, { scale: 'absolute' });
    expect(r.basis?.kind).toBe('score');
    expect(r.pValue).toBeCloseTo(0.02174, 5);
  });
});
