import { isImproved, type FrequentistResult } from './frequentist.js';
import { basisInterval, type Interval } from './intervals.js';

/**
 * Adjusted p-values for a family of tests, matching statsmodels.stats.multitest.multipletests
 * with method 'holm' and 'fdr_bh'. Null entries (tests that could not be run) are passed through
 * as null and do not count towards the family size.
 */

export interface AdjustedPValues {
  readonly adjusted: readonly (number | null)[];
  readonly rejected: readonly boolean[];
}

type Adjuster = (sortedAscending: readonly number[]) => number[];

function adjust(pValues: readonly (number | null)[], alpha: number, adjuster: Adjuster): AdjustedPValues {
  const present = pValues
    .map((p, index) => ({ p, index }))
    .filter((e): e is { p: number; index: number } => e.p !== null && Number.isFinite(e.p));
  // Stable sort keeps ties in input order, like numpy's mergesort used by statsmodels.
  present.sort((a, b) => a.p - b.p);
  const corrected = adjuster(present.map((e) => e.p));
  const adjusted: (number | null)[] = pValues.map(() => null);
  present.forEach((e, rank) => {
    adjusted[e.index] = Math.min(1, corrected[rank] ?? 1);
  });
  return { adjusted, rejected: adjusted.map((p) => p !== null && p <= alpha) };
}

/**
 * Holm (1979) step-down: p̃_(i) = max_{j ≤ i} (m − j + 1)·p_(j), capped at 1.
 * Rejection uses p̃ ≤ α, which is statsmodels' rule for both methods.
 */
export function holm(pValues: readonly (number | null)[], alpha = 0.05): AdjustedPValues {
  return adjust(pValues, alpha, (sorted) => {
    const m = sorted.length;
    let runningMax = 0;
    return sorted.map((p, i) => {
      runningMax = Math.max(runningMax, (m - i) * p);
      return runningMax;
    });
  });
}

/** Benjamini & Hochberg (1995) step-up: p̃_(i) = min_{j ≥ i} m·p_(j)/j, capped at 1. */
export function benjaminiHochberg(pValues: readonly (number | null)[], alpha = 0.05): AdjustedPValues {
  return adjust(pValues, alpha, (sorted) => {
    const m = sorted.length;
    const out = new Array<number>(m);
    let runningMin = Infinity;
    for (let i = m - 1; i >= 0; i -= 1) {
      runningMin = Math.min(runningMin, ((sorted[i] ?? 1) * m) / (i + 1));
      out[i] = runningMin;
    }
    return out;
  });
}

/** Bonferroni: p̃ = min(1, m·p). The bound the planner uses for Holm (see planning.ts). */
export function bonferroni(pValues: readonly (number | null)[], alpha = 0.05): AdjustedPValues {
  return adjust(pValues, alpha, (sorted) => sorted.map((p) => sorted.length * p));
}

export type Correction = 'holm' | 'benjamini-hochberg' | 'bonferroni' | 'none';

export function adjustPValues(pValues: readonly (number | null)[], correction: Correction, alpha = 0.05): AdjustedPValues {
  if (correction === 'holm') return holm(pValues, alpha);
  if (correction === 'benjamini-hochberg') return benjaminiHochberg(pValues, alpha);
  if (correction === 'bonferroni') return bonferroni(pValues, alpha);
  return { adjusted: [...pValues], rejected: pValues.map((p) => p !== null && p < alpha) };
}

export interface CorrectedComparison {
  readonly adjustedPValue: number | null;
  /** The per-comparison level the interval is built at: α·p/p̃ (α/m for Bonferroni or a p̃ capped at 1; α uncorrected). */
  readonly level: number | null;
  /** The comparison's own interval at `level`: it excludes 0 exactly when adjustedPValue < α. */
  readonly adjustedInterval: Interval | null;
  readonly significant: boolean;
  readonly improved: boolean | null;
}

/**
 * Adjusts a family of comparisons together (all treatment variants × target metrics) and gives each
 * the interval that agrees with its adjusted p-value. An interval at level L excludes 0 exactly when
 * p < L, so at L = α·p/p̃ it excludes 0 exactly when p̃ < α: the reported interval can never cover 0
 * next to a significant adjusted p-value, nor the reverse. For Bonferroni L = α/m, the usual
 * simultaneous intervals; for Holm and Benjamini–Hochberg no exact simultaneous interval exists
 * (Strassburger & Bretz 2008), and GrowthBook likewise derives its adjusted intervals from the
 * adjusted p-value (it rescales the standard error; we rebuild the comparison's own interval, so
 * t, confidence-sequence and score intervals keep their shape).
 */
export function correctComparisons(
  results: readonly FrequentistResult[],
  correction: Correction,
  alpha: number = results[0]?.alpha ?? 0.05,
): CorrectedComparison[] {
  const raw = results.map((r) => r.pValue);
  const { adjusted } = adjustPValues(raw, correction, alpha);
  const family = raw.filter((p) => p !== null).length;
  return results.map((r, i) => {
    const p = raw[i] ?? null;
    const pAdjusted = adjusted[i] ?? null;
    if (p === null || pAdjusted === null || r.basis === null || r.estimate === null) {
      return { adjustedPValue: pAdjusted, level: null, adjustedInterval: null, significant: false, improved: null };
    }
    // Where p̃ = α·p/level cannot be inverted (p̃ = 0 by underflow, or capped at 1) the Bonferroni level
    // α/m gives the same verdict: p = 0 excludes 0 at any level, and a capped p̃ means p ≥ 1/m ≥ α/m.
    const bonferroniLevel = alpha / Math.max(1, family);
    const level =
      correction === 'none'
        ? alpha
        : pAdjusted > 0 && pAdjusted < 1 && correction !== 'bonferroni'
          ? (alpha * p) / pAdjusted
          : bonferroniLevel;
    const adjustedInterval = basisInterval(r.basis, level);
    const significant = adjustedInterval !== null && pAdjusted < alpha;
    return { adjustedPValue: pAdjusted, level, adjustedInterval, significant, improved: isImproved(significant, r.estimate, r.direction) };
  });
}
