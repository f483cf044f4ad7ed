/**
 * Exact (enumerated, not simulated) operating characteristics of the score method with 40 units per arm:
 * every one of the 41 × 41 outcomes is weighted by its binomial probability. Reported in README.md.
 */
import { describe, expect, it } from 'vitest';
import { tQuantile } from '../distributions/distributions.js';
import { welchDf } from './moments.js';
import { compareProportions } from './proportions.js';

const N = 40;

function binomialPmf(n: number, p: number): number[] {
  const out: number[] = [];
  let logC = 0;
  for (let k = 0; k <= n; k += 1) {
    if (k > 0) logC += Math.log(n - k + 1) - Math.log(k);
    out.push(p === 0 ? (k === 0 ? 1 : 0) : Math.exp(logC + k * Math.log(p) + (n - k) * Math.log1p(-p)));
  }
  return out;
}

describe(`score method at ${N} units per arm, exact`, () => {
  const intervals = new Map<string, readonly [number, number] | null>();
  // What the Welch test on the sums used to answer, zero-variance arms included (for comparison only).
  const welch = new Map<string, readonly [number, number]>();
  const pValues = new Map<string, number | null>();
  for (let a = 0; a <= N; a += 1) {
    for (let b = 0; b <= N; b += 1) {
      const r = compareProportions(a, N, b, N, { scale: 'absolute' });
      intervals.set(`${a},${b}`, r.interval);
      pValues.set(`${a},${b}`, r.pValue);
      const [pa, pb] = [a / N, b / N];
      const [va, vb] = [(pa * (1 - pa) * N) / (N - 1), (pb * (1 - pb) * N) / (N - 1)];
      const se = Math.sqrt(va / N + vb / N);
      const df = va === 0 ? N - 1 : vb === 0 ? N - 1 : welchDf(va, N, vb, N)!;
      const half = se === 0 ? 0 : tQuantile(0.975, df) * se;
      welch.set(`${a},${b}`, [pb - pa - half, pb - pa + half]);
    }
  }
  const expectation = (pA: number, pB: number, event: (a: number, b: number) => boolean): number => {
    const fa = binomialPmf(N, pA);
    const fb = binomialPmf(N, pB);
    let total = 0;
    for (let a = 0; a <= N; a += 1) for (let b = 0; b <= N; b += 1) if (event(a, b)) total += fa[a]! * fb[b]!;
    return total;
  };

  it('covers the true difference at least 93 % of the time, rare events included', () => {
    const lines: string[] = [];
    for (const [pA, pB] of [
      [0.02, 0.05],
      [0.02, 0.1],
      [0.005, 0.1],
      [0.05, 0.15],
      [0.1, 0.1],
      [0.3, 0.4],
    ] as const) {
      const covered = (map: Map<string, readonly [number, number] | null>) =>
        expectation(pA, pB, (a, b) => {
          const ci = map.get(`${a},${b}`)!;
          return ci !== null && ci[0] <= pB - pA && pB - pA <= ci[1];
        });
      const coverage = covered(intervals);
      const welchCoverage = covered(welch);
      lines.push(`(${pA}, ${pB}): score ${coverage.toFixed(4)}, Welch ${welchCoverage.toFixed(4)}`);
      expect(coverage).toBeGreaterThanOrEqual(0.93);
      if (pA < 0.05) expect(coverage).toBeGreaterThan(welchCoverage);
    }
    console.log(`exact coverage of the 95 % score interval, ${N} per arm: ${lines.join('; ')}`);
  });

  it('keeps its size near α: at most 0.06 at α = 0.05 over true proportions 0.005 … 0.5', () => {
    let worst = 0;
    let worstP = 0;
    for (let i = 1; i <= 100; i += 1) {
      const p = 0.005 * i;
      const size = expectation(p, p, (a, b) => (pValues.get(`${a},${b}`) ?? 1) < 0.05);
      if (size > worst) [worst, worstP] = [size, p];
    }
    console.log(`exact size of the score test at α = 0.05, ${N} per arm: max ${worst.toFixed(4)} at p = ${worstP}`);
    expect(worst).toBeLessThanOrEqual(0.06);
  });
});
