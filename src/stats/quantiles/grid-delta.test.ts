import { describe, expect, it } from 'vitest';
import { createRng } from '../../random/index.js';
import { addGridDelta, addUnitChange, emptyGridDelta, gridSumsOf, quantileGridDelta } from './grid-delta.js';
import { gridIndex, logGrid, quantileGridSums, quantileOfGrid } from './quantiles.js';

describe('incremental grid sums', () => {
  it('equal quantileGridSums on the final items, whatever the order and batching of arrivals', () => {
    const rng = createRng(31);
    const grid = logGrid(1, 1e4, 1.05);
    const k = grid.length;
    for (let trial = 0; trial < 20; trial += 1) {
      const units: number[][] = Array.from({ length: 30 }, () => []);
      const positions: number[][] = units.map(() => []);
      let sums = emptyGridDelta(k);
      // The in-place form attribution uses, into two targets at once (a variant-day and a slice).
      const inPlace = [emptyGridDelta(k), emptyGridDelta(k)];
      for (let batch = 0; batch < 10; batch += 1) {
        const touched = new Map<number, number[]>();
        for (let i = 0; i < 15; i += 1) {
          const u = Math.floor(rng.uniform() * units.length);
          // Values from 0 to beyond the grid's end, with ties on thresholds.
          const r = rng.uniform();
          const value = r < 0.05 ? 0 : r < 0.1 ? 2e4 : r < 0.2 ? grid[Math.floor(rng.uniform() * k)]! : Math.exp(rng.uniform() * 9);
          units[u]!.push(value);
          touched.set(
            u,
            [...(touched.get(u) ?? positions[u]!), gridIndex(grid, value)].sort((a, b) => a - b),
          );
        }
        for (const [u, after] of touched) {
          sums = addGridDelta(sums, quantileGridDelta(positions[u]!, after, k));
          addUnitChange(inPlace, positions[u]!, after);
          positions[u] = after;
        }
      }
      const expected = quantileGridSums(units, grid);
      const got = gridSumsOf(grid, sums);
      expect(got.units).toBe(expected.units);
      expect(got.items).toBe(expected.items);
      expect(got.itemsSquared).toBe(expected.itemsSquared);
      expect(got.below).toEqual(expected.below);
      expect(got.belowSquared).toEqual(expected.belowSquared);
      expect(got.belowTimesItems).toEqual(expected.belowTimesItems);
      expect(quantileOfGrid(got, 0.5)).toEqual(quantileOfGrid(expected, 0.5));
      for (const target of inPlace) expect(gridSumsOf(grid, target)).toEqual(expected);
    }
  });

  it('a unit that gains no items changes nothing; its first item adds one unit', () => {
    const d0 = quantileGridDelta([2, 3], [2, 3], 5);
    expect(d0).toEqual(emptyGridDelta(5));
    const d1 = quantileGridDelta([], [1, 3], 5);
    expect(d1).toMatchObject({ units: 1, items: 2, itemsSquared: 4, below: [0, 1, 1, 2, 2], belowSquared: [0, 1, 1, 4, 4] });
    expect(d1.belowTimesItems).toEqual([0, 2, 2, 4, 4]);
  });
});
