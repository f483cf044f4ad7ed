import { describe, expect, it } from 'vitest';
import { findBestSplit as find, type Packing } from './split-finder.js';

/** Integer hessians here, so scale 1: the packed channel is h·2^20 + count. */
const PACKING: Packing = { countBase: 2 ** 20, invScale: 1 };
const findBestSplit = (...args: Parameters<typeof find> extends [...infer A, Packing] ? A : never) => find(...args, PACKING);

/** Histogram for one feature: [g, h, count] per value bin, then the missing bin, packed as the trainer does. */
function hist(bins: Array<[number, number, number]>): Float64Array {
  return Float64Array.from(bins.flatMap(([g, h, c]) => [g, h * PACKING.countBase + c]));
}

describe('findBestSplit', () => {
  const params = { lambda: 1, minDataInLeaf: 1, minChildHessian: 0, minSplitGain: 0 };

  it('finds the hand-computed best threshold', () => {
    // Four rows, one per bin, g = [-2, -1, 1, 2], h = 1 each, no missing.
    // Parent: G = 0 → score 0. Cut after bin 1: L = (-3, 2), R = (3, 2) → 9/3 + 9/3 = 6.
    // Cut after bin 0: L = (-2,1), R = (2,3) → 4/2 + 4/4 = 3; after bin 2: symmetric, 3.
    const h = hist([
      [-2, 1, 1],
      [-1, 1, 1],
      [1, 1, 1],
      [2, 1, 1],
      [0, 0, 0],
    ]);
    const s = findBestSplit(h, [0], Int32Array.from([4]), Int32Array.from([0, 5]), 0, 4, 4, params)!;
    expect(s.bin).toBe(1);
    expect(s.gain).toBeCloseTo(6, 12);
    expect([s.leftG, s.leftH, s.leftCount, s.rightG, s.rightH, s.rightCount]).toEqual([-3, 2, 2, 3, 2, 2]);
  });

  it('learns the default direction for missing values', () => {
    // Missing rows have g = -4 (they want to go up with the low bin's rows).
    // Missing left: L = (-2-4, 2), R = (2, 1) → 36/3 + 4/2 = 14; parent (-4, 3) → 16/4 = 4; gain 10.
    // Missing right: L = (-2, 1), R = (-2, 2) → 2 + 4/3 − 4 < 0.
    const h = hist([
      [-2, 1, 1],
      [2, 1, 1],
      [-4, 1, 1],
    ]);
    const s = findBestSplit(h, [0], Int32Array.from([2]), Int32Array.from([0, 3]), -4, 3, 3, params)!;
    expect(s.defaultLeft).toBe(true);
    expect(s.gain).toBeCloseTo(10, 12);
  });

  it('respects minDataInLeaf and minChildHessian', () => {
    const h = hist([
      [-2, 1, 1],
      [-1, 1, 1],
      [1, 1, 1],
      [2, 1, 1],
      [0, 0, 0],
    ]);
    const args = [Int32Array.from([4]), Int32Array.from([0, 5]), 0, 4, 4] as const;
    expect(findBestSplit(h, [0], ...args, { ...params, minDataInLeaf: 3 })).toBeNull();
    expect(findBestSplit(h, [0], ...args, { ...params, minChildHessian: 2.5 })).toBeNull();
    expect(findBestSplit(h, [0], ...args, { ...params, minSplitGain: 7 })).toBeNull();
  });
});
