import { describe, expect, it } from 'vitest';
import { createRng, mulberry32 } from './random.js';

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
});
