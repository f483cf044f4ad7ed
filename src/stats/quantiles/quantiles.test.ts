import { describe, expect, it } from 'vitest';
import { expectClose, expectClosePair, loadFixture } from '../../../test/support/stats-fixtures.js';
import {
  compareQuantiles,
  logGrid,
  quantileGridSums,
  quantileOfGrid,
  quantileOfItems,
  type QuantileEstimate,
  type QuantileGridSums,
} from './quantiles.js';

interface Arm {
  quantile: number;
  cdfSe: number;
  se: number;
}
interface QuantileCase {
  name: string;
  q: number;
  alpha: number;
  control: number[][];
  variant: number[][];
  expected: {
    control: Arm;
    variant: Arm;
    estimate: number;
    interval: [number, number];
    pValue: number;
    relativeEstimate: number;
    relativeInterval: [number, number];
    relativePValue: number;
  };
  grid: { control: QuantileGridSums; variant: QuantileGridSums };
}

const cases = loadFixture<QuantileCase>('quantiles');

function checkArm(r: QuantileEstimate, e: Arm, label: string): void {
  expect(r.reason).toBeNull();
  expectClose(r.quantile, e.quantile, `${label} quantile`, 1e-12);
  expectClose(r.cdfSe, e.cdfSe, `${label} cdf se`, 1e-9);
  expectClose(r.se, e.se, `${label} se`, 1e-9);
}

describe('quantile differences against numpy (type-4 quantile, delta-method CDF variance, Woodruff bounds)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const e = c.expected;
    checkArm(quantileOfItems(c.control, c.q), e.control, 'control');
    checkArm(quantileOfItems(c.variant, c.q), e.variant, 'variant');
    const absolute = compareQuantiles(c.control, c.variant, { q: c.q, alpha: c.alpha, scale: 'absolute' });
    expectClose(absolute.estimate, e.estimate, 'estimate', 1e-9);
    expectClosePair(absolute.interval, e.interval, 'interval', 1e-9);
    expectClose(absolute.pValue, e.pValue, 'pValue', 1e-6, 1e-15);
    expect(absolute.basis?.kind).toBe('normal');
    const relative = compareQuantiles(c.control, c.variant, { q: c.q, alpha: c.alpha });
    expectClose(relative.estimate, e.relativeEstimate, 'relative estimate', 1e-9);
    expectClosePair(relative.interval, e.relativeInterval, 'relative interval', 1e-9);
    expectClose(relative.pValue, e.relativePValue, 'relative pValue', 1e-6, 1e-15);
  });

  it.each(cases.map((c) => [c.name, c] as const))('grid sums built like numpy searchsorted: %s', (_name, c) => {
    for (const side of ['control', 'variant'] as const) {
      const built = quantileGridSums(c[side], c.grid[side].thresholds);
      const e = c.grid[side];
      expect(built.units).toBe(e.units);
      expect(built.items).toBe(e.items);
      expect(built.itemsSquared).toBe(e.itemsSquared);
      expect(built.below).toEqual(e.below);
      expect(built.belowSquared).toEqual(e.belowSquared);
      expect(built.belowTimesItems).toEqual(e.belowTimesItems);
    }
  });
});

describe('grid summaries', () => {
  const c = cases[0]!;
  it('reproduce the raw quantile exactly when the grid holds every distinct value, and its standard error closely', () => {
    const grid = [...new Set([...c.control.flat(), ...c.variant.flat()])].sort((a, b) => a - b);
    const raw = quantileOfItems(c.control, c.q);
    const fromGrid = quantileOfGrid(quantileGridSums(c.control, grid), c.q);
    expectClose(fromGrid.quantile, raw.quantile, 'quantile', 1e-12);
    expectClose(fromGrid.se, raw.se, 'se', 0.02);
  });

  it('stay within the grid resolution of the raw quantile on a 1 % log grid', () => {
    const fromGrid = quantileOfGrid(quantileGridSums(c.control, logGrid(1, 1e6, 1.01)), c.q);
    const raw = quantileOfItems(c.control, c.q);
    expect(Math.abs(fromGrid.quantile! / raw.quantile! - 1)).toBeLessThan(0.01);
  });

  it('refuse a grid that does not reach the quantile, and give reasons for empty or tiny arms', () => {
    expect(quantileOfGrid(quantileGridSums([[5, 50, 500]], [0, 10]), 0.9).reason).toBe('INVALID_INPUT');
    expect(quantileOfItems([], 0.5).reason).toBe('EMPTY_ARM');
    expect(quantileOfItems([[1, 2, 3]], 0.5).reason).toBe('TOO_FEW_UNITS');
    expect(quantileOfItems([[1, 2], [3]], 1.5).reason).toBe('INVALID_INPUT');
    expect(compareQuantiles([[1, 1], [1]], [[2, 3], [4]], { q: 0.5 }).reason).toBe('ZERO_VARIANCE');
  });
});
