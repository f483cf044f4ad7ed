import { sequentialHalfwidth, sequentialPValue } from '../sequential/confidence-sequence.js';
import { normalQuantile, normalSf, tQuantile, tSf } from '../distributions/distributions.js';
import { scoreBounds, scorePValue, type ScoreCompare, type TwoProportions } from './score.js';

/**
 * Everything needed to rebuild a comparison's two-sided interval at another level, as a plain object:
 * multiple-testing adjustment widens each interval to the level its adjusted p-value implies, with
 * the comparison's own procedure (t, normal, confidence sequence or score inversion).
 * - `welch-t`: estimate ± t_{1−α/2, df}·se (Welch 1947).
 * - `normal`: estimate ± z_{1−α/2}·se (large-sample procedures such as quantile differences).
 * - `confidence-sequence`: estimate ± the asymptotic confidence sequence half-width at n with a fixed ρ.
 * - `score`: Miettinen–Nurminen inversion on the difference, or on the ratio (reported as ratio − 1).
 */
export type IntervalBasis =
  | { readonly kind: 'welch-t'; readonly estimate: number; readonly se: number; readonly df: number }
  | { readonly kind: 'normal'; readonly estimate: number; readonly se: number }
  | { readonly kind: 'confidence-sequence'; readonly estimate: number; readonly se: number; readonly n: number; readonly rho: number }
  | { readonly kind: 'score'; readonly compare: ScoreCompare; readonly counts: TwoProportions };

export type Interval = readonly [number, number];

/** Two-sided p-value of "no difference" (lift 0, ratio 1) under the basis' procedure. */
export function basisPValue(basis: IntervalBasis): number {
  switch (basis.kind) {
    case 'welch-t':
      return Math.min(1, 2 * tSf(Math.abs(basis.estimate / basis.se), basis.df));
    case 'normal':
      return Math.min(1, 2 * normalSf(Math.abs(basis.estimate / basis.se)));
    case 'confidence-sequence':
      return sequentialPValue(basis.estimate / basis.se, basis.n, basis.rho);
    case 'score':
      return scorePValue(basis.counts, basis.compare, basis.compare === 'diff' ? 0 : 1);
  }
}

/** Two-sided (1 − α) interval on the comparison's scale; null only for an unbounded score ratio. */
export function basisInterval(basis: IntervalBasis, alpha: number): Interval | null {
  switch (basis.kind) {
    case 'welch-t':
      return around(basis.estimate, tQuantile(1 - alpha / 2, basis.df) * basis.se);
    case 'normal':
      return around(basis.estimate, normalQuantile(1 - alpha / 2) * basis.se);
    case 'confidence-sequence':
      return around(basis.estimate, sequentialHalfwidth(basis.se, basis.n, alpha, basis.rho));
    case 'score': {
      const bounds = scoreBounds(basis.counts, basis.compare, alpha / 2);
      if (bounds === null) return null;
      return basis.compare === 'diff' ? bounds : [bounds[0] - 1, bounds[1] - 1];
    }
  }
}

function around(estimate: number, halfwidth: number): Interval {
  return [estimate - halfwidth, estimate + halfwidth];
}

export function excludesZero(interval: Interval | null): boolean {
  return interval !== null && (interval[0] > 0 || interval[1] < 0);
}
