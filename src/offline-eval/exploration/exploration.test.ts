import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../random/index.js';
import { explorationCost, ndcgAt10, overallPropensity, randPair, swapLoss } from './index.js';

// 1 / log2(3): the discount of rank 2, by hand 0.63093.
const D2 = 0.6309297535714575;

describe('randPair', () => {
  it('swaps the pair the draw picks among the k − 1 adjacent pairs, with propensity 1 / (k − 1)', () => {
    const list = ['a', 'b', 'c', 'd'];
    // k = 4 → 3 pairs; a draw of 0 picks pair (1, 2), a draw of 0.99 picks ⌊2.97⌋ = pair (3, 4).
    expect(randPair(list, () => 0)).toEqual({ ranking: ['b', 'a', 'c', 'd'], swapped: [1, 2], propensity: 1 / 3 });
    expect(randPair(list, () => 0.99)).toEqual({ ranking: ['a', 'b', 'd', 'c'], swapped: [3, 4], propensity: 1 / 3 });
    expect(randPair(list, () => 0.5)).toEqual({ ranking: ['a', 'c', 'b', 'd'], swapped: [2, 3], propensity: 1 / 3 });
    expect(list).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps swaps inside the depth; depth 2 always swaps the top two (propensity 1); nothing to swap in a single result', () => {
    const list = ['a', 'b', 'c', 'd', 'e'];
    expect(randPair(list, () => 0.99, 3)).toEqual({ ranking: ['a', 'c', 'b', 'd', 'e'], swapped: [2, 3], propensity: 1 / 2 });
    expect(randPair(list, () => 0.7, 2)).toEqual({ ranking: ['b', 'a', 'c', 'd', 'e'], swapped: [1, 2], propensity: 1 });
    expect(randPair(['a'], () => 0.3)).toEqual({ ranking: ['a'], swapped: null, propensity: 1 });
    expect(overallPropensity(0.05, 1 / 4)).toBeCloseTo(0.0125, 12);
  });

  it('draws each pair equally often (seeded, 30 000 draws: every count within 3 standard errors of n / 9)', () => {
    const random = mulberry32(26);
    const list = Array.from({ length: 20 }, (_, i) => `r${i}`);
    const counts = new Array<number>(9).fill(0);
    const n = 30_000;
    for (let t = 0; t < n; t++) counts[randPair(list, random, 10).swapped![0] - 1]! += 1;
    const p = 1 / 9;
    const se = Math.sqrt(n * p * (1 - p));
    for (const c of counts) expect(Math.abs(c - n * p)).toBeLessThan(3 * se);
  });
});

describe('explorationCost', () => {
  it('NDCG@10 with linear gain, by hand', () => {
    expect(ndcgAt10([1, 0])).toBe(1);
    expect(ndcgAt10([0, 1])).toBeCloseTo(D2, 12);
    // [0.5, 1]: DCG = 0.5 + 1·D2, ideal = 1 + 0.5·D2.
    expect(ndcgAt10([0.5, 1])).toBeCloseTo((0.5 + D2) / (1 + 0.5 * D2), 12);
    expect(ndcgAt10([0, 0, 0])).toBe(0);
  });

  it('the loss of one list is served NDCG minus the mean over its swaps', () => {
    // [1, 0] at depth 2: the one swap gives [0, 1]: 1 − D2 = 0.36907.
    expect(swapLoss([1, 0], 2)).toBeCloseTo(1 - D2, 12);
    // [1, 0, 0] at depth 10 (k = 3): swaps [0, 1, 0] → D2 and [1, 0, 0] → 1; loss 1 − (D2 + 1) / 2 = 0.18454.
    expect(swapLoss([1, 0, 0])).toBeCloseTo(1 - (D2 + 1) / 2, 12);
    // A badly served list gains from a swap: negative loss.
    expect(swapLoss([0, 1], 2)).toBeCloseTo(D2 - 1, 12);
  });

  it('is share × the mean loss over searches', () => {
    expect(explorationCost([[1, 0]], 0.1, 2).ndcgLoss).toBeCloseTo(0.1 * (1 - D2), 12);
    // Two searches whose losses cancel: 0.
    expect(
      explorationCost(
        [
          [1, 0],
          [0, 1],
        ],
        0.2,
        2,
      ).ndcgLoss,
    ).toBeCloseTo(0, 12);
    // [1, 0] (0.36907) and [1, 0, 0] (0.18454) at depth 10, share 0.05: 0.05 × 0.27680 = 0.013840.
    expect(
      explorationCost(
        [
          [1, 0],
          [1, 0, 0],
        ],
        0.05,
      ).ndcgLoss,
    ).toBeCloseTo((0.05 * (1 - D2 + 1 - (D2 + 1) / 2)) / 2, 12);
    expect(explorationCost([], 0.2).ndcgLoss).toBe(0);
    expect(explorationCost([[1, 0]], 0, 2).ndcgLoss).toBe(0);
  });
});
