import { describe, expect, it } from 'vitest';
import { createRng, mulberry32, shuffleInPlace } from './index.js';

describe('seeded PRNG', () => {
  it('is reproducible for a seed and differs across seeds', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const seqA = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(seqA);
  });

  it('gives uniforms, normals and Poisson counts with the right first two moments', () => {
    const rng = createRng(7);
    const n = 200000;
    let [u, u2, z, z2, k, k2, outOfRange] = [0, 0, 0, 0, 0, 0, 0];
    for (let i = 0; i < n; i += 1) {
      const x = rng.uniform();
      if (!(x >= 0 && x < 1)) outOfRange += 1;
      u += x;
      u2 += x * x;
      const y = rng.normal();
      z += y;
      z2 += y * y;
      const p = rng.poisson(1.5);
      k += p;
      k2 += p * p;
    }
    expect(outOfRange).toBe(0);
    expect(Math.abs(u / n - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(u2 / n - (u / n) ** 2 - 1 / 12)).toBeLessThan(0.002);
    expect(Math.abs(z / n)).toBeLessThan(0.01);
    expect(Math.abs(z2 / n - 1)).toBeLessThan(0.02);
    expect(Math.abs(k / n - 1.5)).toBeLessThan(0.02);
    expect(Math.abs(k2 / n - (k / n) ** 2 - 1.5)).toBeLessThan(0.03);
  });

  it('gives chi-square and binomial draws with the right first two moments', () => {
    const rng = createRng(8);
    const draws = 100000;
    const moments = (draw: () => number): [number, number] => {
      let sum = 0;
      let sumSquares = 0;
      for (let i = 0; i < draws; i += 1) {
        const x = draw();
        sum += x;
        sumSquares += x * x;
      }
      return [sum / draws, sumSquares / draws - (sum / draws) ** 2];
    };
    for (const df of [0.6, 3, 99]) {
      const [mean, variance] = moments(() => rng.chiSquare(df));
      expect(Math.abs(mean - df)).toBeLessThan(0.02 * df + 0.01);
      expect(Math.abs(variance - 2 * df)).toBeLessThan(0.05 * 2 * df);
    }
    for (const [n, p] of [
      [40, 0.02],
      [2000, 0.3],
      [500, 0.9],
    ] as const) {
      const [mean, variance] = moments(() => rng.binomial(n, p));
      expect(Math.abs(mean - n * p)).toBeLessThan(0.01 * n * p + 0.01);
      expect(Math.abs(variance - n * p * (1 - p))).toBeLessThan(0.05 * n * p * (1 - p));
    }
  });
});

describe('mulberry32', () => {
  it('is reproducible per seed and uniform on [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 20_000 }, () => a());
    expect(Array.from({ length: 20_000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
    expect(mulberry32(43)()).not.toBe(mulberry32(42)());
  });

  it('shuffles to a permutation', () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const shuffled = shuffleInPlace([...items], mulberry32(1));
    expect([...shuffled].sort((x, y) => x - y)).toEqual(items);
    expect(shuffled).not.toEqual(items);
  });
});
