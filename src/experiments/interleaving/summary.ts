import type { InterleavedComparison, PairCorrection, RankerStanding, TeamBalanceResult } from '../../stats/index.js';

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const pFmt = (p: number) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);
const CORRECTION_NAMES: Record<PairCorrection, string> = { holm: 'Holm', 'benjamini-hochberg': 'Benjamini–Hochberg', none: '' };
const REASONS: Record<string, string> = {
  ZERO_DENOMINATOR: 'no decided queries yet',
  TOO_FEW_UNITS: 'too few units with decided queries',
  INVALID_INPUT: 'invalid input',
};

export interface SummaryInput {
  readonly comparisons: readonly InterleavedComparison[];
  /** Display name of each variant id (falls back to the id). */
  readonly names?: Readonly<Record<string, string>>;
  readonly method?: 'fixed' | 'sequential';
  readonly correction?: PairCorrection;
  readonly balance: TeamBalanceResult;
  /** Multileaving: the overall order, stated first. */
  readonly order?: readonly RankerStanding[];
}

/**
 * One sentence per pair from the side of the ranker ahead, then the team-balance verdict, e.g.
 * "ranker-v2 beats original in 58.1 % of decided queries [55.2 %, 61.0 %], p < 0.001; team
 * balance passed." The interval is the share's (unadjusted) interval; p is the adjusted one
 * when several pairs are tested.
 */
export function interleavingSummary(input: SummaryInput): string {
  const name = (id: string) => input.names?.[id] ?? id;
  const several = input.comparisons.length > 1;
  const correction = input.correction ?? 'holm';
  const after = several && CORRECTION_NAMES[correction] ? ` after ${CORRECTION_NAMES[correction]}` : '';
  const kind = input.method === 'sequential' ? 'always-valid ' : '';
  const sentences = input.comparisons.map((c) => {
    if (c.share === null || c.shareCi === null || c.adjustedPValue === null) {
      const why = REASONS[c.reason ?? ''] ?? 'no data';
      return `${name(c.variantId)} and ${name(c.opponentVariantId)} cannot be compared yet (${why})`;
    }
    const verdict = c.significant ? '' : ', not significant';
    const stats = `${kind}${pFmt(c.adjustedPValue)}${after}${verdict}`;
    if (c.share === 0.5) {
      return `${name(c.variantId)} and ${name(c.opponentVariantId)} each win 50.0 % of decided queries [${pct(c.shareCi[0])}, ${pct(c.shareCi[1])}], ${stats}`;
    }
    const ahead = c.share > 0.5;
    const [leader, other] = ahead ? [c.variantId, c.opponentVariantId] : [c.opponentVariantId, c.variantId];
    const share = ahead ? c.share : 1 - c.share;
    const [lo, hi] = ahead ? c.shareCi : [1 - c.shareCi[1], 1 - c.shareCi[0]];
    return `${name(leader)} beats ${name(other)} in ${pct(share)} of decided queries [${pct(lo)}, ${pct(hi)}], ${stats}`;
  });
  if (input.order && input.order.length > 2) sentences.unshift(`overall order: ${orderText(input.order, name)}`);
  const b = input.balance;
  const balance = b.passed
    ? b.positions.note || b.firstPicks.note
      ? `team balance not yet meaningful (${b.positions.note ?? b.firstPicks.note})`
      : 'team balance passed'
    : `team balance FAILED (positions p = ${fmtP(b.positions.pValue)}, first picks p = ${fmtP(b.firstPicks.pValue)}): the teams did not get equal shares of the credited positions, so these results are untrustworthy`;
  return [...sentences, balance].join('; ') + '.';
}

const fmtP = (p: number | null) => (p === null ? 'n/a' : p < 0.001 ? p.toExponential(2) : p.toFixed(3));

/** "a, then b and c (level), then d": rankers sharing a rank are grouped. */
function orderText(order: readonly RankerStanding[], name: (id: string) => string): string {
  const groups: string[][] = [];
  let rank = -1;
  for (const s of order) {
    if (s.rank !== rank) groups.push([]);
    rank = s.rank;
    groups[groups.length - 1]!.push(name(s.variantId));
  }
  return groups.map((g) => (g.length > 1 ? `${g.join(' and ')} (level)` : g[0])).join(', then ');
}
