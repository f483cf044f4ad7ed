import { describe, expect, it } from 'vitest';
import { mulberry32, shuffleInPlace } from './prng.js';
import { spearman } from './spearman.js';

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
    const shuffled = shuffleInPlace(mulberry32(1), [...items]);
    expect([...shuffled].sort((x, y) => x - y)).toEqual(items);
    expect(shuffled).not.toEqual(items);
  });
});

describe('spearman', () => {
  it('matches scipy.stats.spearmanr on its documented example (with a tie)', () => {
    expect(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(0.8207826816681233, 12);
  });
  it('is ±1 for monotone relations and NaN when undefined', () => {
    expect(spearman([1, 2, 3], [10, 100, 1000])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    expect(spearman([1], [1])).toBeNaN();
    expect(spearman([1, 1], [1, 2])).toBeNaN();
  });
});
