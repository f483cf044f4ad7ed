import { describe, expect, it } from 'vitest';
import { spearman } from './spearman.js';

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
