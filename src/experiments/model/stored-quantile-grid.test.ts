import { describe, expect, it } from 'vitest';
import { logGrid } from '../../stats/index.js';
import { decodeGridArray, encodeGridArray, gridPosition, QUANTILE_GRID } from './stored-quantile-grid.js';

describe('the quantile metrics’ grid', () => {
  it('is the grid the simulations check: 0, then 1 ms × 1.01^i up to 24 h (1 839 thresholds)', () => {
    expect(QUANTILE_GRID).toEqual(logGrid(1, 86_400_000, 1.01));
    expect(QUANTILE_GRID.length).toBe(1839);
    expect(QUANTILE_GRID[0]).toBe(0);
    expect(QUANTILE_GRID.at(-1)!).toBeGreaterThanOrEqual(86_400_000);
    for (let i = 2; i < QUANTILE_GRID.length; i += 1) expect(QUANTILE_GRID[i]! / QUANTILE_GRID[i - 1]!).toBeCloseTo(1.01, 12);
  });

  it('places every accepted duration (0 … 86 400 000 ms) on the grid, at the first threshold at or above it', () => {
    expect(gridPosition(0)).toBe(0);
    expect(gridPosition(1)).toBe(1);
    expect(gridPosition(1.005)).toBe(2);
    expect(gridPosition(86_400_000)).toBe(QUANTILE_GRID.length - 1);
    expect(gridPosition(1e9)).toBe(QUANTILE_GRID.length);
  });

  it('stores arrays without their leading zeros and constant tail, and reads them back', () => {
    const a = [0, 0, 0, 1, 2, 2, 5, 5, 5];
    expect(encodeGridArray(a)).toBe('[3,7,1,2,2,5]');
    for (const x of [a, [0, 0], [3, 3, 3], [0, 1], [1, 0, 0], [2, 2, 0], [7], [0], [0, 0, 4, 4, 1, 1]]) {
      expect(decodeGridArray(encodeGridArray(x), x.length)).toEqual(x);
    }
  });
});
