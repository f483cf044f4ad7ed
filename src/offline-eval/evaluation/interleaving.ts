/**
 * The expected outcome of team-draft interleaving (Radlinski, Kurup & Joachims, CIKM 2008) of the
 * candidate against the baseline for one query, computed exactly rather than simulated: every
 * sequence of coin flips is enumerated (a flip happens only when both teams have made as many
 * picks and both still have an unused result, so at most 2^(depth/2) lists), and under PBM with
 * examination p_r and click probabilities γ̂ each team's expected clicks are
 * Σ_sequences P(sequence) Σ_{r ≤ depth} p_r γ̂(d_r) [d_r picked by the team].
 * The draft is the one experiments/interleaving/team-draft.ts runs online: the team with fewer
 * picks goes next, a fair coin when they tie.
 */
export interface TeamCredit {
  candidate: number;
  baseline: number;
}

export function expectedTeamDraftCredit(
  candidate: readonly string[],
  baseline: readonly string[],
  clickAtTop: (resultId: string) => number,
  propensity: Float64Array,
  depth: number,
): TeamCredit {
  const credit: TeamCredit = { candidate: 0, baseline: 0 };
  const used = new Set<string>();
  const lists = [candidate, baseline] as const;
  const draft = (slot: number, cursorA: number, cursorB: number, picksA: number, picksB: number, probability: number): void => {
    if (slot >= depth) return;
    while (cursorA < candidate.length && used.has(candidate[cursorA] as string)) cursorA += 1;
    while (cursorB < baseline.length && used.has(baseline[cursorB] as string)) cursorB += 1;
    const canA = cursorA < candidate.length;
    const canB = cursorB < baseline.length;
    if (!canA && !canB) return;
    const pick = (team: 0 | 1, share: number): void => {
      const doc = (lists[team] as readonly string[])[team === 0 ? cursorA : cursorB] as string;
      const expected = share * (propensity[slot] as number) * Math.min(1, Math.max(0, clickAtTop(doc)));
      if (team === 0) credit.candidate += expected;
      else credit.baseline += expected;
      used.add(doc);
      if (team === 0) draft(slot + 1, cursorA + 1, cursorB, picksA + 1, picksB, share);
      else draft(slot + 1, cursorA, cursorB + 1, picksA, picksB + 1, share);
      used.delete(doc);
    };
    if (canA && canB && picksA === picksB) {
      pick(0, probability / 2);
      pick(1, probability / 2);
    } else if (canA && (!canB || picksA < picksB)) {
      pick(0, probability);
    } else {
      pick(1, probability);
    }
  };
  draft(0, 0, 0, 0, 0, 1);
  return credit;
}

/** A query is won when the candidate's expected credit is higher by more than 1e-9, tied within it. */
export function outcome(credit: TeamCredit): 'win' | 'loss' | 'tie' {
  const difference = credit.candidate - credit.baseline;
  if (difference > 1e-9) return 'win';
  if (difference < -1e-9) return 'loss';
  return 'tie';
}
