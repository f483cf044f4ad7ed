import { describe, expect, it } from 'vitest';
import { expectClose, expectClosePair, loadFixture } from '../../../test/support/stats-fixtures.js';
import { bayesianEffectTest, bayesianTest, type GaussianPrior } from './bayesian.js';
import { estimateEffect, meanSums, proportionSums } from '../frequentist/moments.js';
import type { EffectEstimate, MetricDirection } from '../types.js';

interface BayesianCase {
  name: string;
  relativeLift: number;
  relativeVariance: number;
  prior: GaussianPrior | null;
  direction: MetricDirection;
  expected: {
    expectedLift: number;
    posteriorStdDev: number;
    credibleInterval: [number, number];
    chanceToBeatControl: number;
    riskControl: number;
    riskVariant: number;
  };
}

function effectWith(relativeLift: number, relativeVariance: number): EffectEstimate {
  return {
    controlMean: 1,
    variantMean: 1 + relativeLift,
    absoluteLift: relativeLift,
    absoluteVariance: relativeVariance,
    relativeLift,
    relativeVariance,
    df: 100,
    totalUnits: 1000,
    controlMeanZ: 100,
    reason: null,
  };
}

describe('Bayesian read-out against scipy (norm, truncnorm)', () => {
  it.each(loadFixture<BayesianCase>('bayesian').map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = bayesianEffectTest(effectWith(c.relativeLift, c.relativeVariance), {
      prior: c.prior ?? 'improper',
      direction: c.direction,
    });
    const e = c.expected;
    expectClose(r.expectedLift, e.expectedLift, 'expectedLift');
    expectClose(r.posteriorStdDev, e.posteriorStdDev, 'sd');
    expectClosePair(r.credibleInterval, e.credibleInterval, 'ci');
    expectClose(r.chanceToBeatControl, e.chanceToBeatControl, 'ctw');
    expectClose(r.risk?.control, e.riskControl, 'risk control', 1e-6, 1e-15);
    expectClose(r.risk?.variant, e.riskVariant, 'risk variant', 1e-6, 1e-15);
  });
});

describe('Bayesian edge cases', () => {
  it('uses the delta-method relative lift of the sums', () => {
    const control = proportionSums(300, 1000);
    const variant = proportionSums(330, 1000);
    const r = bayesianTest(control, variant);
    expectClose(r.expectedLift, estimateEffect(control, variant).relativeLift, 'lift');
    expect(r.chanceToBeatControl).toBeGreaterThan(0.5);
  });
  it('returns a reason for zero control mean, empty arm and zero variance', () => {
    expect(bayesianTest(meanSums(100, 0, 100), meanSums(100, 30, 130)).reason).toBe('ZERO_CONTROL_MEAN');
    expect(bayesianTest(proportionSums(0, 100), proportionSums(5, 100)).reason).toBe('ZERO_VARIANCE');
    expect(bayesianTest(meanSums(0, 0, 0), proportionSums(5, 100)).reason).toBe('EMPTY_ARM');
    expect(bayesianTest(meanSums(3, 3, 3), meanSums(3, 6, 12)).reason).toBe('ZERO_VARIANCE');
    expect(bayesianTest(proportionSums(3, 10), proportionSums(4, 10), { prior: { mean: 0, stdDev: 0 } }).reason).toBe('INVALID_INPUT');
  });
});

describe('Bayesian view on the chosen scale, with a per-metric prior on that scale', () => {
  it.each(loadFixture<BayesianCase>('bayesian').map((c) => [c.name, c] as const))('absolute scale: %s', (_name, c) => {
    // The same normal–normal algebra on the absolute lift: put the case's numbers on the absolute fields only.
    const effect: EffectEstimate = { ...effectWith(0.5, 0.01), absoluteLift: c.relativeLift, absoluteVariance: c.relativeVariance };
    const r = bayesianEffectTest(effect, { prior: c.prior ?? 'improper', direction: c.direction, scale: 'absolute' });
    expect(r.scale).toBe('absolute');
    expectClose(r.expectedLift, c.expected.expectedLift, 'expectedLift');
    expectClose(r.chanceToBeatControl, c.expected.chanceToBeatControl, 'ctw');
    expectClose(r.risk?.variant, c.expected.riskVariant, 'risk variant', 1e-6, 1e-15);
  });

  it('refuses the relative scale when the control mean is not bounded away from zero, keeps the absolute one', () => {
    const effect: EffectEstimate = { ...effectWith(0.1, 0.01), controlMeanZ: 1.5 };
    expect(bayesianEffectTest(effect).reason).toBe('CONTROL_MEAN_NEAR_ZERO');
    expect(bayesianEffectTest(effect, { scale: 'absolute' }).reason).toBeNull();
  });
});
