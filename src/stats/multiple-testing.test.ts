import { describe, expect, it } from 'vitest';
import { expectClose, loadFixture } from '../../test/fixtures/stats/load.js';
import { benjaminiHochberg, holm } from './multiple-testing.js';

interface MultipleCase {
  name: string;
  pValues: number[];
  alpha: number;
  holm: { adjusted: number[]; rejected: boolean[] };
  bh: { adjusted: number[]; rejected: boolean[] };
}

describe('Holm and Benjamini–Hochberg against statsmodels multipletests', () => {
  it.each(loadFixture<MultipleCase>('multiple-testing').map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const h = holm(c.pValues, c.alpha);
    const b = benjaminiHochberg(c.pValues, c.alpha);
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
