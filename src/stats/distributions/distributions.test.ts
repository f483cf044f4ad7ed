import { describe, it } from 'vitest';
import { expectClose, loadFixture } from '../../../test/support/stats-fixtures.js';
import { chiSquareSf, normalCdf, normalQuantile, tQuantile, tSf } from './distributions.js';

interface DistributionCase {
  fn: 'normalQuantile' | 'normalCdf' | 'tQuantile' | 'tSf' | 'chiSquareSf';
  args: number[];
  expected: number;
}

const functions: Record<DistributionCase['fn'], (...args: number[]) => number> = {
  normalQuantile: (p) => normalQuantile(p ?? Number.NaN),
  normalCdf: (x) => normalCdf(x ?? Number.NaN),
  tQuantile: (p, df) => tQuantile(p ?? Number.NaN, df ?? Number.NaN),
  tSf: (x, df) => tSf(x ?? Number.NaN, df ?? Number.NaN),
  chiSquareSf: (x, k) => chiSquareSf(x ?? Number.NaN, k ?? Number.NaN),
};

describe('distribution functions against scipy.stats', () => {
  const cases = loadFixture<DistributionCase>('distributions');
  it.each(cases.map((c) => [`${c.fn}(${c.args.join(', ')})`, c] as const))('%s', (label, c) => {
    // Values below 1e-300 are compared absolutely: both sides are 0 for practical purposes.
    expectClose(functions[c.fn](...c.args), c.expected, label, 1e-6, 1e-300);
  });
});
