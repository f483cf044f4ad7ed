import cdf from '@stdlib/stats-base-dists-chisquare-cdf';
import { describe, expect, it } from 'vitest';
import { assign, type AssignableExperiment } from './assign.js';

const UNIT_COUNT = 1_000_000;

/** Pearson chi-square goodness of fit of observed counts to expected shares; returns the p-value. */
function chiSquarePValue(observed: readonly number[], shares: readonly number[]): { statistic: number; p: number } {
  const total = observed.reduce((a, b) => a + b, 0);
  const statistic = observed.reduce((sum, o, i) => {
    const e = total * (shares[i] ?? 0);
    return sum + ((o - e) * (o - e)) / e;
  }, 0);
  return { statistic, p: 1 - cdf(statistic, observed.length - 1) };
}

/** Counts per variant, with units outside the traffic allocation counted last. */
function split(experiment: AssignableExperiment, idPrefix: string): number[] {
  const counts = new Array<number>(experiment.variants.length + 1).fill(0);
  for (let i = 0; i < UNIT_COUNT; i++) {
    const { variantIndex } = assign(experiment, `${idPrefix}${i}`);
    const slot = variantIndex === -1 ? experiment.variants.length : variantIndex;
    counts[slot] = (counts[slot] ?? 0) + 1;
  }
  return counts;
}

describe(`uniformity over ${UNIT_COUNT} sequential unit ids`, () => {
  it('50/50 at full traffic matches the weights (chi-square p > 0.001)', () => {
    const experiment: AssignableExperiment = {
      seed: 'uniformity-50-50',
      variants: [
        { id: 'a', weight: 0.5 },
        { id: 'b', weight: 0.5 },
      ],
      trafficAllocation: 1,
    };
    const counts = split(experiment, 'user-');
    expect(counts[2]).toBe(0);
    const { statistic, p } = chiSquarePValue(counts.slice(0, 2), [0.5, 0.5]);
    console.info(`50/50: counts ${counts.join('/')}, chi2 ${statistic.toFixed(3)}, p ${p.toFixed(4)}`);
    expect(p).toBeGreaterThan(0.001);
  });

  it('0.1/0.2/0.3/0.4 at 80 % traffic matches weights × traffic, excluded share included (p > 0.001)', () => {
    const experiment: AssignableExperiment = {
      seed: 'uniformity-4-way',
      variants: [
        { id: 'a', weight: 0.1 },
        { id: 'b', weight: 0.2 },
        { id: 'c', weight: 0.3 },
        { id: 'd', weight: 0.4 },
      ],
      trafficAllocation: 0.8,
    };
    const counts = split(experiment, '');
    const { statistic, p } = chiSquarePValue(counts, [0.08, 0.16, 0.24, 0.32, 0.2]);
    console.info(`0.1/0.2/0.3/0.4 @0.8: counts ${counts.join('/')}, chi2 ${statistic.toFixed(3)}, p ${p.toFixed(4)}`);
    expect(p).toBeGreaterThan(0.001);
  });
});
