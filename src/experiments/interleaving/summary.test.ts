import { describe, expect, it } from 'vitest';
import { compareInterleavedPairs, pairSumsFromUnits, rankerOrder, teamBalanceCheck } from '../../stats/index.js';
import { interleavingSummary } from './summary.js';

const units = (wins: number, losses: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ wins: i % 10 < wins ? 1 : 0, losses: i % 10 >= 10 - losses ? 1 : 0, ties: 1 }));
const balanced = teamBalanceCheck([5000, 5000], [500, 500]);

describe('interleavingSummary', () => {
  it('reads like the A/B summary, from the side of the ranker ahead', () => {
    // 4 of 10 units win for "orig", 6 lose: the sentence is written from ranker-v2's side.
    const comparisons = compareInterleavedPairs([
      { variantId: 'orig', opponentVariantId: 'v2', sums: pairSumsFromUnits(units(4, 6, 2000)) },
    ]);
    const text = interleavingSummary({ comparisons, names: { orig: 'original', v2: 'ranker-v2' }, balance: balanced });
    expect(text).toBe('ranker-v2 beats original in 60.0 % of decided queries [57.8 %, 62.2 %], p < 0.001; team balance passed.');
  });

  it('says when a pair is not significant, cannot be tested, or the teams are unbalanced', () => {
    const comparisons = compareInterleavedPairs([
      { variantId: 'a', opponentVariantId: 'b', sums: pairSumsFromUnits(units(5, 4, 40)) },
      { variantId: 'a', opponentVariantId: 'c', sums: pairSumsFromUnits([]) },
      { variantId: 'b', opponentVariantId: 'c', sums: pairSumsFromUnits(units(5, 5, 40)) },
    ]);
    const text = interleavingSummary({
      comparisons,
      method: 'sequential',
      order: rankerOrder(['a', 'b', 'c'], comparisons),
      balance: teamBalanceCheck([5400, 4600, 5000], [100, 100, 100]),
    });
    // c (0 against b, untested against a) sits above b (behind a on the point estimate).
    expect(text).toMatch(/^overall order: a, then c, then b; /);
    expect(text).toContain('a beats b in 55.6 % of decided queries');
    expect(text).toContain('always-valid p = ');
    expect(text).toContain('after Holm, not significant');
    expect(text).toContain('a and c cannot be compared yet (no decided queries yet)');
    expect(text).toContain('b and c each win 50.0 % of decided queries');
    expect(text).toMatch(/team balance FAILED \(positions p = .*\): .* untrustworthy\.$/);
  });

  it('says when team balance is not yet meaningful', () => {
    const comparisons = compareInterleavedPairs([{ variantId: 'a', opponentVariantId: 'b', sums: pairSumsFromUnits(units(1, 0, 3)) }]);
    expect(interleavingSummary({ comparisons, balance: teamBalanceCheck([3, 3], [2, 1]) })).toMatch(/team balance not yet meaningful/);
  });
});
