import { chiSquareSf } from '../distributions/distributions.js';

export interface SrmOptions {
  /** p-value below which the split is declared mismatched. Default 0.001. */
  readonly threshold?: number;
  /** Fewest units every arm needs before the check means anything. Default 8. */
  readonly minUnitsPerArm?: number;
}

export interface SrmResult {
  readonly chiSquare: number | null;
  readonly df: number;
  readonly pValue: number | null;
  /** Expected units per arm under the configured weights. */
  readonly expected: readonly number[];
  readonly passed: boolean;
  readonly note: string | null;
}

export const SRM_THRESHOLD = 0.001;
export const SRM_MIN_UNITS_PER_ARM = 8;

/**
 * Sample-ratio-mismatch check: Pearson's chi-square goodness of fit of observed units per arm
 * against the configured weights, χ² = Σ (O_i − E_i)²/E_i with k − 1 degrees of freedom (identical to
 * scipy.stats.chisquare). The 8-unit floor follows the usual rule that the chi-square approximation
 * needs expected counts of roughly 5 or more; below it a failure would be noise, so the check passes
 * with a note. Weights need not sum to 1; arms with weight 0 must observe 0 units.
 */
export function srmCheck(observed: readonly number[], weights: readonly number[], options: SrmOptions = {}): SrmResult {
  const threshold = options.threshold ?? SRM_THRESHOLD;
  const minUnits = options.minUnitsPerArm ?? SRM_MIN_UNITS_PER_ARM;
  const df = observed.length - 1;
  const invalid = (note: string): SrmResult => ({
    chiSquare: null,
    df: Math.max(df, 0),
    pValue: null,
    expected: [],
    passed: true,
    note,
  });
  if (observed.length !== weights.length || observed.length < 2) {
    return invalid('observed and weights must list the same arms, at least two');
  }
  if (![...observed, ...weights].every((v) => Number.isFinite(v) && v >= 0)) {
    return invalid('counts and weights must be finite and non-negative');
  }
  const totalWeight = weights.reduce((s, w) => s + w, 0);
  const total = observed.reduce((s, o) => s + o, 0);
  if (!(totalWeight > 0)) return invalid('weights must not all be zero');
  const expected = weights.map((w) => (total * w) / totalWeight);
  let chiSquare = 0;
  for (let i = 0; i < observed.length; i += 1) {
    const o = observed[i] ?? 0;
    const e = expected[i] ?? 0;
    if (e === 0) {
      // A unit in an arm configured to get none is a mismatch however few units there are.
      if (o > 0) return { chiSquare: Infinity, df, pValue: 0, expected, passed: false, note: 'units observed in an arm with weight 0' };
      continue;
    }
    chiSquare += ((o - e) * (o - e)) / e;
  }
  const pValue = total === 0 ? 1 : chiSquareSf(chiSquare, df);
  const enough = observed.every((o, i) => (weights[i] ?? 0) === 0 || o >= minUnits);
  if (!enough) {
    return {
      chiSquare,
      df,
      pValue,
      expected,
      passed: true,
      note: `not yet meaningful: some arm has fewer than ${minUnits} units`,
    };
  }
  return { chiSquare, df, pValue, expected, passed: !(pValue < threshold), note: null };
}
