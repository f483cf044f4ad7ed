import { describe, expect, it } from 'vitest';
import { expectClose, expectClosePair, loadFixture } from '../../../test/support/stats-fixtures.js';
import { compareProportions } from './proportions.js';
import { scoreBounds, scoreOneSidedPValue, scoreStatistic, type TwoProportions } from './score.js';

interface ScoreSide {
  statistic: number;
  pValue: number;
  interval: [number, number];
  oneSidedBounds: [number, number];
}
interface AtMargin {
  statistic: number;
  pGreater: number;
  pLess: number;
}
interface ScoreCase {
  name: string;
  alpha: number;
  counts: TwoProportions;
  margin?: number;
  expected: { diff: ScoreSide; ratio: ScoreSide | null; diffAtMargin?: AtMargin; ratioAtMargin?: AtMargin };
  exactTests?: { fisher: number; barnard: number; boschloo: number };
}

const cases = loadFixture<ScoreCase>('score');
const args = (c: TwoProportions) => [c.successesControl, c.nControl, c.successesVariant, c.nVariant] as const;

describe('Miettinen–Nurminen score test and interval against statsmodels / scipy', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const { diff, ratio } = c.expected;
    expectClose(scoreStatistic(c.counts, 'diff', 0), diff.statistic, 'statistic', 1e-6, 1e-9);
    const absolute = compareProportions(...args(c.counts), { alpha: c.alpha, scale: 'absolute' });
    expect(absolute.reason).toBeNull();
    expectClose(absolute.pValue, diff.pValue, 'pValue', 1e-6, 1e-15);
    expectClosePair(absolute.interval, diff.interval, 'interval', 1e-6, 1e-9);
    expectClosePair(absolute.ci, diff.interval, 'ci', 1e-6, 1e-9);
    expectClosePair(scoreBounds(c.counts, 'diff', c.alpha), diff.oneSidedBounds, 'one-sided bounds', 1e-6, 1e-9);
    const relative = compareProportions(...args(c.counts), { alpha: c.alpha, scale: 'relative' });
    if (ratio === null) {
      expect(relative.reason).toBe('ZERO_CONTROL_MEAN');
      expect(relative.interval).toBeNull();
    } else {
      expect(relative.reason).toBeNull();
      // The ratio and difference tests of "no difference" are the same pooled statistic.
      expectClose(relative.pValue, ratio.pValue, 'relative pValue', 1e-6, 1e-15);
      expectClosePair(relative.interval, [ratio.interval[0] - 1, ratio.interval[1] - 1], 'relative interval', 1e-6, 1e-9);
      expectClosePair(scoreBounds(c.counts, 'ratio', c.alpha), ratio.oneSidedBounds, 'ratio one-sided bounds', 1e-6, 1e-9);
    }
    for (const r of [absolute, relative]) {
      const excludes = r.interval !== null && (r.interval[0] > 0 || r.interval[1] < 0);
      expect(r.significant).toBe(excludes);
      expect(r.significant).toBe(r.pValue !== null && r.pValue < c.alpha);
    }
    const m = c.margin;
    if (m !== undefined && c.expected.diffAtMargin) {
      expectClose(scoreStatistic(c.counts, 'diff', -m), c.expected.diffAtMargin.statistic, 'statistic at margin', 1e-6, 1e-9);
      expectClose(scoreOneSidedPValue(c.counts, 'diff', -m, 'greater'), c.expected.diffAtMargin.pGreater, 'p greater', 1e-6, 1e-15);
      expectClose(scoreOneSidedPValue(c.counts, 'diff', -m, 'less'), c.expected.diffAtMargin.pLess, 'p less', 1e-6, 1e-15);
    }
    if (m !== undefined && c.expected.ratioAtMargin) {
      expectClose(scoreOneSidedPValue(c.counts, 'ratio', 1 - m, 'greater'), c.expected.ratioAtMargin.pGreater, 'ratio p', 1e-6, 1e-15);
    }
  });
});

describe('issue 13, bug 4: 0 of 40 conversions against 5 of 40', () => {
  const c = cases.find((x) => x.name === 'issue-0-of-40-vs-5-of-40')!;

  it('gives a non-degenerate interval and the p-value the exact unconditional test gives, not Welch’s zero-variance one', () => {
    const r = compareProportions(0, 40, 5, 40, { scale: 'absolute' });
    // Welch's variance of the control arm is 0; the score interval is built under the null instead.
    expect(r.interval![0]).toBeGreaterThan(0.02);
    expect(r.interval![1]).toBeGreaterThan(0.25);
    // Exact tests for the record (scipy): Fisher conditions on the total and is conservative (0.055);
    // Barnard's and Boschloo's exact unconditional tests, which keep their size at α, say 0.022 and 0.033.
    expect(c.exactTests!.fisher).toBeGreaterThan(0.05);
    expect(c.exactTests!.barnard).toBeLessThan(0.05);
    expect(Math.abs(r.pValue! - c.exactTests!.barnard)).toBeLessThan(0.001);
  });

  it('has no relative scale while the control has no conversion', () => {
    const r = compareProportions(0, 40, 5, 40);
    expect(r.scale).toBe('relative');
    expect(r.reason).toBe('ZERO_CONTROL_MEAN');
    expect(r.pValue).toBeNull();
    expect(r.significant).toBe(false);
    expect(r.otherScale).toEqual({ scale: 'absolute', estimate: 0.125, reason: null });
  });
});
