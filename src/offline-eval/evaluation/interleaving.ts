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
  // Results as small integers, so the enumeration works on typed arrays.
  const ids = new Map<string, number>();
  const index = (list: readonly string[]): Int32Array =>
    Int32Array.from(list, (d) => {
      let i = ids.get(d);
      if (i === undefined) ids.set(d, (i = ids.size));
      return i;
    });
  const a = index(candidate);
  const b = index(baseline);
  const gamma = new Float64Array(ids.size);
  for (const [d, i] of ids) gamma[i] = clickAtTop(d);
  const draft: Draft = { a, b, gamma, propensity, depth, used: new Uint8Array(ids.size), credit: [0, 0] };
  step(draft, 0, 0, 0, 0, 0, 1);
  return { candidate: draft.credit[0], baseline: draft.credit[1] };
}

interface Draft {
  a: Int32Array;
  b: Int32Array;
  gamma: Float64Array;
  propensity: Float64Array;
  depth: number;
  used: Uint8Array;
  credit: [number, number];
}

/** Fills rank `slot` and below; `probability` is the chance of the coin flips so far. */
function step(d: Draft, slot: number, cursorA: number, cursorB: number, picksA: number, picksB: number, probability: number): void {
  if (slot >= d.depth) return;
  while (cursorA < d.a.length && d.used[d.a[cursorA] as number] === 1) cursorA += 1;
  while (cursorB < d.b.length && d.used[d.b[cursorB] as number] === 1) cursorB += 1;
  const canA = cursorA < d.a.length;
  const canB = cursorB < d.b.length;
  if (!canA && !canB) return;
  if (canA && canB && picksA === picksB) {
    pick(d, 0, slot, cursorA, cursorB, picksA, picksB, probability / 2);
    pick(d, 1, slot, cursorA, cursorB, picksA, picksB, probability / 2);
  } else if (canA && (!canB || picksA < picksB)) {
    pick(d, 0, slot, cursorA, cursorB, picksA, picksB, probability);
  } else {
    pick(d, 1, slot, cursorA, cursorB, picksA, picksB, probability);
  }
}

function pick(
  d: Draft,
  team: 0 | 1,
  slot: number,
  cursorA: number,
  cursorB: number,
  picksA: number,
  picksB: number,
  probability: number,
): void {
  const result = (team === 0 ? d.a[cursorA] : d.b[cursorB]) as number;
  d.credit[team] += probability * (d.propensity[slot] as number) * (d.gamma[result] as number);
  d.used[result] = 1;
  if (team === 0) step(d, slot + 1, cursorA + 1, cursorB, picksA + 1, picksB, probability);
  else step(d, slot + 1, cursorA, cursorB + 1, picksA, picksB + 1, probability);
  d.used[result] = 0;
}

/** A query is won when the candidate's expected credit is higher by more than 1e-9, tied within it. */
export function outcome(credit: TeamCredit): 'win' | 'loss' | 'tie' {
  const difference = credit.candidate - credit.baseline;
  if (difference > 1e-9) return 'win';
  if (difference < -1e-9) return 'loss';
  return 'tie';
}
