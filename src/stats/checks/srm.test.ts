import { describe, expect, it } from 'vitest';
import { expectClose, loadFixture } from '../../../test/support/stats-fixtures.js';
import { srmCheck } from './srm.js';

interface SrmCase {
  name: string;
  observed: number[];
  weights: number[];
  expected: { chiSquare: number; pValue: number; passed: boolean; meaningful: boolean };
}

describe('srmCheck against scipy.stats.chisquare', () => {
  it.each(loadFixture<SrmCase>('srm').map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = srmCheck(c.observed, c.weights);
    expectClose(r.chiSquare, c.expected.chiSquare, 'chiSquare', 1e-9, 1e-12);
    expectClose(r.pValue, c.expected.pValue, 'pValue', 1e-6, 1e-300);
    expect(r.passed).toBe(c.expected.passed);
    expect(r.note === null).toBe(c.expected.meaningful);
    expect(r.df).toBe(c.observed.length - 1);
  });
});

describe('srmCheck edge cases', () => {
  it('passes with a note while some arm has fewer than 8 units', () => {
    const r = srmCheck([7, 0], [1, 1]);
    expect(r.passed).toBe(true);
    expect(r.note).toMatch(/not yet meaningful/);
  });
  it('handles no units at all', () => {
    const r = srmCheck([0, 0], [1, 1]);
    expect(r.pValue).toBe(1);
    expect(r.passed).toBe(true);
  });
  it('fails units in an arm configured with weight 0', () => {
    expect(srmCheck([100, 3], [1, 0]).passed).toBe(false);
  });
  it('rejects malformed input without throwing', () => {
    expect(srmCheck([1, 2, 3], [1, 1]).note).toMatch(/same arms/);
    expect(srmCheck([10, 10], [0, 0]).note).toMatch(/weights/);
    expect(srmCheck([10, -1], [1, 1]).note).toMatch(/non-negative/);
  });
});
