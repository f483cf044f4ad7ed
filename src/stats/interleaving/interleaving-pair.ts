import { clopperPearson, signTestPValue } from '../distributions/binomial.js';
import { normalQuantile, tQuantile, tSf } from '../distributions/distributions.js';
import { DEFAULT_ALPHA, isValidAlpha } from '../frequentist/frequentist.js';
import { DEFAULT_SEQUENTIAL_TUNING, sequentialHalfwidth, sequentialPValue, sequentialRho } from '../sequential/sequential.js';
import type { StatsReason } from '../types.js';

/**
 * Statistics of an interleaving comparison between two rankers ("variant" against "opponent").
 *
 * Per query the variant wins, loses or ties. Queries of one unit are correlated (same person,
 * same intent, repeated query ids), so everything works per unit: unit u contributes its
 * counts (w_u, l_u, t_u), decided d_u = w_u + l_u. The headline is the share of decided queries
 * the variant won, R = Σw/Σd. H0 (no preference) is E[w_u − ½d_u] = 0.
 *
 * Test and interval come from ONE statistic, the cluster-robust score statistic of a share r,
 *   T(r) = Σ_u (w_u − r·d_u) / √Σ_u (w_u − r·d_u)²,
 * the delta-method linearisation of R evaluated at r rather than at R (a self-normalised sum,
 * Efron 1969). The p-value is that of T(½); the interval is {r : |T(r)| ≤ c}, a quadratic
 * inequality in r (Fieller 1954). So `significant` ⇔ the interval excludes ½, and unlike the
 * Wald form it stays honest at the boundary (every decided query won has zero Wald variance).
 * c is Student's t quantile with (units − 1) df, or the confidence-sequence boundary for the
 * sequential method. When every unit has at most one decided query the comparison is a sign test
 * and we use the exact binomial test with its Clopper–Pearson interval (scipy.stats.binomtest).
 */

/** A unit's outcomes against one opponent. */
export interface UnitOutcomes {
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
}

/**
 * Sufficient statistics of one pair, summed over units. Every field is additive (a SUM or COUNT
 * over per-unit rows), so a store can keep them current by adding `unitPairSums(after) −
 * unitPairSums(before)` when one unit's counts change.
 */
export interface InterleavingPairSums {
  /** Units with at least one query of this pair. */
  readonly units: number;
  /** Units with at least one decided query: the n of the test. */
  readonly decidedUnits: number;
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
  /** Σ w_u², Σ l_u², Σ w_u·l_u. */
  readonly sumWins2: number;
  readonly sumLosses2: number;
  readonly sumWinsLosses: number;
}

export const EMPTY_PAIR_SUMS: InterleavingPairSums = {
  units: 0,
  decidedUnits: 0,
  wins: 0,
  losses: 0,
  ties: 0,
  sumWins2: 0,
  sumLosses2: 0,
  sumWinsLosses: 0,
};

/** One unit's contribution to the pair sums. */
export function unitPairSums(u: UnitOutcomes): InterleavingPairSums {
  const decided = u.wins + u.losses;
  return {
    units: decided + u.ties > 0 ? 1 : 0,
    decidedUnits: decided > 0 ? 1 : 0,
    wins: u.wins,
    losses: u.losses,
    ties: u.ties,
    sumWins2: u.wins * u.wins,
    sumLosses2: u.losses * u.losses,
    sumWinsLosses: u.wins * u.losses,
  };
}

const KEYS = Object.keys(EMPTY_PAIR_SUMS) as (keyof InterleavingPairSums)[];

/** a + sign·b, field by field (sign −1 gives the change between two states). */
export function addPairSums(a: InterleavingPairSums, b: InterleavingPairSums, sign: 1 | -1 = 1): InterleavingPairSums {
  const out = { ...a };
  for (const k of KEYS) out[k] = a[k] + sign * b[k];
  return out;
}

export function pairSumsFromUnits(units: readonly UnitOutcomes[]): InterleavingPairSums {
  return units.reduce<InterleavingPairSums>((acc, u) => addPairSums(acc, unitPairSums(u)), EMPTY_PAIR_SUMS);
}

/** The same sums seen from the opponent's side (wins and losses swap). */
export function swapPairSums(s: InterleavingPairSums): InterleavingPairSums {
  return { ...s, wins: s.losses, losses: s.wins, sumWins2: s.sumLosses2, sumLosses2: s.sumWins2 };
}

export type InterleavingMethodName = 'fixed' | 'sequential';
export type InterleavingTestName = 'sign-test-exact' | 'clustered-score' | 'sequential-score';

export interface InterleavingTestOptions {
  /** Two-sided level of the test and the interval. Default 0.05. */
  readonly alpha?: number;
  /** `fixed` (one look) or `sequential` (always-valid, safe to look every day). Default fixed. */
  readonly method?: InterleavingMethodName;
  /** N* of the confidence sequence, in units. Default 5000. */
  readonly tuningParameter?: number;
}

export interface InterleavingPairTest {
  readonly queries: number;
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
  readonly units: number;
  readonly decidedUnits: number;
  /** (wins + ties/2)/queries − ½. */
  readonly preference: number | null;
  /** The share interval on the preference scale: (shareCi − ½)·decided/queries, i.e. given the observed tie rate. */
  readonly ci: readonly [number, number] | null;
  /** wins/(wins + losses): the headline and the tested quantity. */
  readonly share: number | null;
  readonly shareCi: readonly [number, number] | null;
  readonly pValue: number | null;
  /** T(½) for the score tests, null for the exact test. */
  readonly statistic: number | null;
  /** Unadjusted: pValue < alpha (⇔ shareCi excludes ½). */
  readonly significant: boolean;
  readonly test: InterleavingTestName | null;
  readonly reason: StatsReason | null;
}

/** Quadratic coefficients of Σ(w − r·d) and Σ(w − r·d)² in r, from the pair sums. */
function scoreTerms(s: InterleavingPairSums) {
  const a = s.wins;
  const b = s.wins + s.losses;
  const aa = s.sumWins2;
  const ab = s.sumWins2 + s.sumWinsLosses;
  const bb = s.sumWins2 + 2 * s.sumWinsLosses + s.sumLosses2;
  return { a, b, aa, ab, bb };
}

/** T(r); 0 when every unit's w_u = r·d_u (no evidence either way). */
export function scoreStatistic(s: InterleavingPairSums, r: number): number {
  const { a, b, aa, ab, bb } = scoreTerms(s);
  const numerator = a - r * b;
  const variance = Math.max(0, aa - 2 * r * ab + r * r * bb);
  return variance > 0 ? numerator / Math.sqrt(variance) : 0;
}

/**
 * {r ∈ [0, 1] : T(r)² ≤ c²}: (A − rB)² ≤ c²(Σa² − 2rΣab + r²Σb²). Bounded only when
 * B² > c²Σb², i.e. the decided queries are spread over more than about c² "effective units"
 * (B²/Σb²); otherwise the set is unbounded (Fieller) and we report no interval.
 */
export function fiellerShareInterval(s: InterleavingPairSums, c: number): readonly [number, number] | null {
  const { a, b, aa, ab, bb } = scoreTerms(s);
  const c2 = c * c;
  const qa = b * b - c2 * bb;
  if (!(qa > 0)) return null;
  const qb = -2 * (a * b - c2 * ab);
  const qc = a * a - c2 * aa;
  const disc = Math.max(0, qb * qb - 4 * qa * qc);
  const root = Math.sqrt(disc);
  // The numerically stable pair of roots (no cancellation between −qb and √disc).
  const t = -0.5 * (qb + (qb >= 0 ? root : -root));
  const r1 = t / qa;
  const r2 = t !== 0 ? qc / t : r1;
  return [Math.max(0, Math.min(r1, r2)), Math.min(1, Math.max(r1, r2))];
}

const NO_TEST = { pValue: null, statistic: null, shareCi: null, ci: null, significant: false, test: null } as const;

/** Tests one pair; see the file comment for the method. */
export function interleavingPairTest(s: InterleavingPairSums, options: InterleavingTestOptions = {}): InterleavingPairTest {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const method = options.method ?? 'fixed';
  const tuning = options.tuningParameter ?? DEFAULT_SEQUENTIAL_TUNING;
  const queries = s.wins + s.losses + s.ties;
  const decided = s.wins + s.losses;
  const base = {
    queries,
    wins: s.wins,
    losses: s.losses,
    ties: s.ties,
    units: s.units,
    decidedUnits: s.decidedUnits,
    preference: queries > 0 ? (s.wins + s.ties / 2) / queries - 0.5 : null,
    share: decided > 0 ? s.wins / decided : null,
  };
  const valid = KEYS.every((k) => Number.isFinite(s[k]) && s[k] >= 0) && isValidAlpha(alpha) && tuning > 0 && Number.isFinite(tuning);
  if (!valid) return { ...base, ...NO_TEST, reason: 'INVALID_INPUT' };
  if (decided === 0) return { ...base, ...NO_TEST, reason: 'ZERO_DENOMINATOR' };
  const toPreference = (ci: readonly [number, number]): readonly [number, number] => [
    ((ci[0] - 0.5) * decided) / queries,
    ((ci[1] - 0.5) * decided) / queries,
  ];
  // Σd² = Σd exactly when every d_u ∈ {0, 1}: one decided query per unit, a sign test.
  const sumDecided2 = s.sumWins2 + 2 * s.sumWinsLosses + s.sumLosses2;
  if (method === 'fixed' && sumDecided2 === decided) {
    const pValue = signTestPValue(s.wins, decided);
    const shareCi = clopperPearson(s.wins, decided, alpha);
    return {
      ...base,
      pValue,
      statistic: null,
      shareCi,
      ci: toPreference(shareCi),
      significant: pValue < alpha,
      test: 'sign-test-exact',
      reason: null,
    };
  }
  const n = s.decidedUnits;
  if (n < 2) return { ...base, ...NO_TEST, reason: 'TOO_FEW_UNITS' };
  const statistic = scoreStatistic(s, 0.5);
  let pValue: number;
  let critical: number;
  if (method === 'sequential') {
    // The confidence sequence for the mean of y_u = w_u − r·d_u, expressed on T's scale:
    // |ȳ| ≤ σ̂·h(n) ⇔ |T| ≤ √n·h(n), which is sequentialHalfwidth with se = 1.
    const rho = sequentialRho(alpha, tuning);
    critical = sequentialHalfwidth(1, n, alpha, rho);
    pValue = sequentialPValue(statistic, n, rho);
  } else {
    critical = tQuantile(1 - alpha / 2, n - 1);
    pValue = Math.min(1, 2 * tSf(Math.abs(statistic), n - 1));
  }
  const shareCi = fiellerShareInterval(s, critical);
  if (shareCi === null) return { ...base, ...NO_TEST, statistic, reason: 'TOO_FEW_UNITS' };
  return {
    ...base,
    pValue,
    statistic,
    shareCi,
    ci: toPreference(shareCi),
    significant: pValue < alpha,
    test: method === 'sequential' ? 'sequential-score' : 'clustered-score',
    reason: null,
  };
}

/**
 * Units needed for a fixed-horizon clustered test to reach `power`, from the per-unit mean and
 * variance of y_u = w_u − ½·d_u (planning; the benchmark uses it). Null when there is no effect.
 */
export function interleavingUnitsForPower(meanY: number, varianceY: number, alpha = DEFAULT_ALPHA, power = 0.8): number | null {
  // T(½) ≈ N(√n·μ/√(σ² + μ²), σ²/(σ² + μ²)) with y_u = w_u − ½d_u: power = Φ((√n·μ − c·√(σ² + μ²))/σ).
  if (!(meanY !== 0 && varianceY >= 0)) return null;
  const mu = Math.abs(meanY);
  const zBeta = normalQuantile(power);
  let n = 2;
  for (let i = 0; i < 50; i += 1) {
    const c = tQuantile(1 - alpha / 2, Math.max(1, n - 1));
    const next = ((c * Math.sqrt(varianceY + mu * mu) + zBeta * Math.sqrt(varianceY)) / mu) ** 2;
    if (Math.abs(next - n) < 1e-9) break;
    n = Math.max(2, next);
  }
  return n;
}
