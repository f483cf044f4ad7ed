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
