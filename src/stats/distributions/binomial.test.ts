import { describe, expect, it } from 'vitest';
import { expectClose, expectClosePair, loadFixture } from '../../../test/support/stats-fixtures.js';
import { binomialAtLeast, binomialCdf, binomialPmf, clopperPearson, signTestPValue } from './binomial.js';

interface SignCase {
  kind: 'signtest';
  k: number;
  n: number;
  alpha: number;
  pValue: number;
  ci: [number, number];
  ciMpmath: [number, number];
}
interface TailCase {
  kind: 'tail';
  k: number;
  n: number;
  p: number;
  pmf: number;
  cdf: number;
  atLeast: number;
}

const cases = loadFixture<SignCase | TailCase>('binomial');
const signCases = cases.filter((c): c is SignCase => c.kind === 'signtest');
const tailCases = cases.filter((c): c is TailCase => c.kind === 'tail');

describe('sign test and Clopper–Pearson against scipy.stats.binomtest', () => {
  it.each(signCases.map((c) => [`k=${c.k} n=${c.n} alpha=${c.alpha}`, c] as const))('%s', (_name, c) => {
    // The requirement: equal to binomtest to 1e-9.
    expectClose(signTestPValue(c.k, c.n), c.pValue, 'pValue', 1e-9, 1e-300);
    const ci = clopperPearson(c.k, c.n, c.alpha);
    // scipy's beta.ppf is itself accurate to ~2e-9 relative far in the tail (k=30, n=100 000);
    // the 50-digit mpmath roots pin our bounds to 1e-12.
    expectClosePair(ci, c.ci, 'ci vs scipy', 1e-8, 1e-15);
    expectClosePair(ci, c.ciMpmath, 'ci vs mpmath', 1e-12, 1e-300);
  });

  it('rejects exactly when the Clopper–Pearson interval excludes ½ (one scale)', () => {
    for (const n of [1, 2, 5, 17, 40, 101, 1000]) {
      for (let k = 0; k <= n; k += Math.max(1, Math.floor(n / 60))) {
        for (const alpha of [0.01, 0.05, 0.1]) {
          const [lo, hi] = clopperPearson(k, n, alpha);
          expect(signTestPValue(k, n) < alpha, `k=${k} n=${n} alpha=${alpha}`).toBe(lo > 0.5 || hi < 0.5);
        }
      }
    }
  });
});

describe('binomial pmf and tails against scipy.stats.binom', () => {
  it.each(tailCases.map((c) => [`k=${c.k} n=${c.n} p=${c.p}`, c] as const))('%s', (_name, c) => {
    expectClose(binomialPmf(c.k, c.n, c.p), c.pmf, 'pmf', 1e-9, 1e-300);
    expectClose(binomialCdf(c.k, c.n, c.p), c.cdf, 'cdf', 1e-9, 1e-300);
    expectClose(binomialAtLeast(c.k, c.n, c.p), c.atLeast, 'atLeast', 1e-9, 1e-300);
  });

  it('handles the degenerate probabilities and out-of-range k', () => {
    expect(binomialPmf(0, 5, 0)).toBe(1);
    expect(binomialPmf(5, 5, 1)).toBe(1);
    expect(binomialPmf(6, 5, 0.5)).toBe(0);
    expect(binomialCdf(-1, 5, 0.5)).toBe(0);
    expect(binomialCdf(5, 5, 0.5)).toBe(1);
    expect(binomialAtLeast(0, 5, 0.5)).toBe(1);
    expect(binomialAtLeast(6, 5, 0.5)).toBe(0);
    expect(signTestPValue(0, 0)).toBe(1);
    expect(clopperPearson(0, 0, 0.05)).toEqual([0, 1]);
  });
});
