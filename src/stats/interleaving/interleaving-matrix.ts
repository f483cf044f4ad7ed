import { DEFAULT_ALPHA } from '../frequentist/frequentist.js';
import {
  interleavingPairTest,
  type InterleavingPairSums,
  type InterleavingPairTest,
  type InterleavingTestOptions,
} from './interleaving-pair.js';
import { benjaminiHochberg, holm } from '../frequentist/multiple-testing.js';
import { SRM_MIN_UNITS_PER_ARM, SRM_THRESHOLD, srmCheck, type SrmResult } from '../checks/srm.js';

/** One pair of an interleaving or multileaving experiment, from the variant's side. */
export interface InterleavedPairInput {
  readonly variantId: string;
  readonly opponentVariantId: string;
  readonly sums: InterleavingPairSums;
}

export interface InterleavedComparison extends InterleavingPairTest {
  readonly variantId: string;
  readonly opponentVariantId: string;
  /** Adjusted across the family of pairs (Holm by default); equals pValue for a single pair. */
  readonly adjustedPValue: number | null;
  /** adjustedPValue < alpha. Implies the unadjusted interval excludes ½. */
  readonly significant: boolean;
  /** The preferred ranker when significant, else null. */
  readonly winner: string | null;
}

export type PairCorrection = 'holm' | 'benjamini-hochberg' | 'none';

export interface PairFamilyOptions extends InterleavingTestOptions {
  readonly correction?: PairCorrection;
}

/**
 * Tests every pair and adjusts the p-values together: with k rankers the family is the k(k−1)/2
 * pairs (Holm 1979 by default, as the A/B results do across metrics × variants).
 */
export function compareInterleavedPairs(pairs: readonly InterleavedPairInput[], options: PairFamilyOptions = {}): InterleavedComparison[] {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const correction = options.correction ?? 'holm';
  const tests = pairs.map((p) => interleavingPairTest(p.sums, options));
  const raw = tests.map((t) => t.pValue);
  const adjusted =
    correction === 'holm' ? holm(raw, alpha).adjusted : correction === 'benjamini-hochberg' ? benjaminiHochberg(raw, alpha).adjusted : raw;
  return tests.map((t, i) => {
    const pair = pairs[i] as InterleavedPairInput;
    const adjustedPValue = adjusted[i] ?? null;
    const significant = adjustedPValue !== null && adjustedPValue < alpha && t.significant;
    const winner = significant && t.share !== null ? (t.share > 0.5 ? pair.variantId : pair.opponentVariantId) : null;
    return { ...t, variantId: pair.variantId, opponentVariantId: pair.opponentVariantId, adjustedPValue, significant, winner };
  });
}

/** Preference of row over column (antisymmetric; null on the diagonal and where no query was compared). */
export function preferenceMatrix(variantIds: readonly string[], comparisons: readonly InterleavedComparison[]): (number | null)[][] {
  const index = new Map(variantIds.map((id, i) => [id, i]));
  const matrix = variantIds.map(() => variantIds.map((): number | null => null));
  for (const c of comparisons) {
    const i = index.get(c.variantId);
    const j = index.get(c.opponentVariantId);
    if (i === undefined || j === undefined || c.preference === null) continue;
    (matrix[i] as (number | null)[])[j] = c.preference;
    (matrix[j] as (number | null)[])[i] = c.preference === 0 ? 0 : -c.preference;
  }
  return matrix;
}

export interface RankerStanding {
  readonly variantId: string;
  /** 1 = best; rankers equal on both keys share a rank. */
  readonly rank: number;
  /** Significant pairwise wins minus significant pairwise losses (Copeland 1951). */
  readonly copeland: number;
  readonly significantWins: number;
  readonly significantLosses: number;
  /** Mean preference against every opponent it was compared with (null if none). */
  readonly meanPreference: number | null;
}

/**
 * Overall order of the rankers: Copeland score on the *significant* (adjusted) pairwise
 * outcomes, so an order is only claimed where the data support it; ties broken by mean
 * preference against all opponents, then by the given order (configuration order).
 */
export function rankerOrder(variantIds: readonly string[], comparisons: readonly InterleavedComparison[]): RankerStanding[] {
  const rows = variantIds.map((variantId, position) => {
    let significantWins = 0;
    let significantLosses = 0;
    const preferences: number[] = [];
    for (const c of comparisons) {
      const side = c.variantId === variantId ? 1 : c.opponentVariantId === variantId ? -1 : 0;
      if (side === 0) continue;
      if (c.preference !== null) preferences.push(side * c.preference);
      if (c.winner === variantId) significantWins += 1;
      else if (c.winner !== null) significantLosses += 1;
    }
    const meanPreference = preferences.length > 0 ? preferences.reduce((s, p) => s + p, 0) / preferences.length : null;
    return { variantId, position, significantWins, significantLosses, copeland: significantWins - significantLosses, meanPreference };
  });
  const key = (r: (typeof rows)[number]) => [r.copeland, r.meanPreference ?? 0] as const;
  rows.sort((a, b) => {
    const [ca, pa] = key(a);
    const [cb, pb] = key(b);
    return cb - ca || pb - pa || a.position - b.position;
  });
  let rank = 0;
  return rows.map((r, i) => {
    const previous = rows[i - 1];
    if (!previous || key(previous)[0] !== key(r)[0] || key(previous)[1] !== key(r)[1]) rank = i + 1;
    const { position: _position, ...standing } = r;
    return { ...standing, rank };
  });
}

export interface TeamBalanceResult {
  /** χ² of each team's credited (top-depth) positions against equal shares. */
  readonly positions: SrmResult;
  /** χ² of which team took rank 1 (the coin flips) against equal shares. */
  readonly firstPicks: SrmResult;
  /** Share of the credited positions per team. */
  readonly positionShares: readonly number[];
  /** False when either check fails: results are then untrustworthy. */
  readonly passed: boolean;
}

/**
 * The interleaving analogue of the SRM check. Team draft gives every team an equal share of the
 * credited positions and of first picks by construction; a departure means a ranker returned fewer
 * results than the depth (the other team then takes the free positions and, with them, clicks that
 * say nothing about ranking quality) or that the coin flips are not fair (the first-picking team owns
 * rank 1 and the position bias that goes with it). Pearson χ² against equal shares, failing at
 * p < 0.001 with at least 8 per team, exactly as the SRM check.
 */
export function teamBalanceCheck(
  positions: readonly number[],
  firstPicks: readonly number[],
  options: { threshold?: number; minPerTeam?: number } = {},
): TeamBalanceResult {
  const srmOptions = { threshold: options.threshold ?? SRM_THRESHOLD, minUnitsPerArm: options.minPerTeam ?? SRM_MIN_UNITS_PER_ARM };
  const equal = positions.map(() => 1);
  const positionResult = srmCheck(positions, equal, srmOptions);
  const firstPickResult = srmCheck(
    firstPicks,
    firstPicks.map(() => 1),
    srmOptions,
  );
  const total = positions.reduce((s, p) => s + p, 0);
  return {
    positions: positionResult,
    firstPicks: firstPickResult,
    positionShares: positions.map((p) => (total > 0 ? p / total : 0)),
    passed: positionResult.passed && firstPickResult.passed,
  };
}
