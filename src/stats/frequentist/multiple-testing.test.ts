import { describe, expect, it } from 'vitest';
import { expectClose, loadFixture } from '../../../test/support/stats-fixtures.js';
import { welchTest } from './frequentist.js';
import { meanSums } from './moments.js';
import { benjaminiHochberg, bonferroni, correctComparisons, holm } from './multiple-testing.js';

interface MultipleCase {
  name: string;
  pValues: number[];
  alpha: number;
  holm: { adjusted: number[]; rejected: boolean[] };
  bh: { adjusted: number[]; rejected: boolean[] };
  bonferroni: { adjusted: number[]; rejected: boolean[] };
}

describe('Holm and Benjamini–Hochberg against statsmodels multipletests', () => {
  it.each(loadFixture<MultipleCase>('multiple-testing').map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const h = holm(c.pValues, c.alpha);
    const b = benjaminiHochberg(c.pValues, c.alpha);
    const f = bonferroni(c.pValues, c.alpha);
    c.bonferroni.adjusted.forEach((p, i) => expectClose(f.adjusted[i], p, `bonferroni[${i}]`));
    expect(f.rejected).toEqual(c.bonferroni.rejected);
    c.holm.adjusted.forEach((p, i) => expectClose(h.adjusted[i], p, `holm[${i}]`));
    c.bh.adjusted.forEach((p, i) => expectClose(b.adjusted[i], p, `bh[${i}]`));
    expect(h.rejected).toEqual(c.holm.rejected);
    expect(b.rejected).toEqual(c.bh.rejected);
  });

  it('passes null p-values through without counting them', () => {
    const r = holm([0.01, null, 0.04]);
    expect(r.adjusted).toEqual([0.02, null, 0.04]);
    expect(r.rejected).toEqual([true, false, true]);
    expect(benjaminiHochberg([]).adjusted).toEqual([]);
  });
});

describe('intervals that agree with the adjusted p-values', () => {
  const control = meanSums(500, 1000, 500 * 4 + 499 * 1);
  const variants = [2.25, 2.12, 2.0].map((mean) => meanSums(500, 500 * mean, 500 * mean * mean + 499 * 1.2));
  const results = variants.map((v) => welchTest(control, v, { alpha: 0.05 }));

  it('are the Bonferroni simultaneous intervals (level α/m) under Bonferroni', () => {
    correctComparisons(results, 'bonferroni').forEach((c, i) => {
      expect(c.level).toBeCloseTo(0.05 / 3, 15);
      const direct = welchTest(control, variants[i]!, { alpha: 0.05 / 3 });
      expect(c.adjustedInterval![0]).toBeCloseTo(direct.ci![0], 12);
      expect(c.adjustedInterval![1]).toBeCloseTo(direct.ci![1], 12);
    });
  });

  it('sit at level α·p/p̃ under Holm and are the plain intervals without a correction', () => {
    const adjusted = holm(results.map((r) => r.pValue));
    correctComparisons(results, 'holm').forEach((c, i) => {
      expect(c.adjustedPValue).toBe(adjusted.adjusted[i]);
      const pAdjusted = adjusted.adjusted[i]!;
      expect(c.level).toBeCloseTo(pAdjusted < 1 ? (0.05 * results[i]!.pValue!) / pAdjusted : 0.05 / 3, 15);
    });
    correctComparisons(results, 'none').forEach((c, i) => expect(c.adjustedInterval).toEqual(results[i]!.interval));
  });
});
