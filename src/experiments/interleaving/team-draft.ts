import { interleavingRandom } from './random.js';
import { DEFAULT_DEPTH, type InterleaveRequest, type InterleavedList, type InterleavedResult, type Ranking } from './types.js';
import { validateInterleaving } from './validate.js';

/**
 * Team-draft interleaving (Radlinski, Kurup & Joachims, CIKM 2008) and team-draft multileaving
 * (Schuth, Sietsma, Whiteson, Lefortier & de Rijke, CIKM 2014), one procedure: repeatedly, among
 * the teams that still have an unused result, the team with the fewest picks so far — a uniformly
 * random one of them when several tie — appends its highest-ranked result not yet in the list.
 * With two teams this is exactly Radlinski's coin flip per round; with more it is Schuth's random
 * order per round. Every result of every ranking ends up in the list once; positions below
 * `depth` keep their team for information but carry no credit.
 *
 * Unequal lists: a team whose ranking is used up stops picking and the others continue, so the
 * top `depth` is balanced (counts within one) as long as every ranking still has unused results
 * there; otherwise the longer rankings fill the gap, which the team-balance check reports.
 *
 * Throws on invalid input (duplicates, wrong team count): callers validate first with
 * `validateInterleaving`, which names the offending field.
 */
export function interleave(request: InterleaveRequest): InterleavedList {
  const depth = request.depth ?? DEFAULT_DEPTH;
  const issue = validateInterleaving(request.method, request.rankings, depth)[0];
  if (issue) throw new RangeError(issue.message);
  const results = teamDraft(request.rankings, interleavingRandom(request.key));
  return { method: request.method, depth, teams: request.rankings.map((r) => r.team), results };
}

/** The draft itself, with any source of uniform [0, 1) numbers (exported for simulations and tests). */
export function teamDraft(rankings: readonly Ranking[], random: () => number): InterleavedResult[] {
  const k = rankings.length;
  const used = new Set<string>();
  const cursor = new Array<number>(k).fill(0);
  const picks = new Array<number>(k).fill(0);
  const out: InterleavedResult[] = [];
  const tied: number[] = [];
  for (;;) {
    tied.length = 0;
    let fewest = Infinity;
    for (let t = 0; t < k; t += 1) {
      const ids = (rankings[t] as Ranking).resultIds;
      let c = cursor[t] as number;
      while (c < ids.length && used.has(ids[c] as string)) c += 1;
      cursor[t] = c;
      if (c >= ids.length) continue;
      const p = picks[t] as number;
      if (p < fewest) {
        fewest = p;
        tied.length = 0;
      }
      if (p === fewest) tied.push(t);
    }
    if (tied.length === 0) break;
    const team = tied.length === 1 ? (tied[0] as number) : (tied[Math.floor(random() * tied.length)] as number);
    const ranking = rankings[team] as Ranking;
    const resultId = ranking.resultIds[cursor[team] as number] as string;
    used.add(resultId);
    picks[team] = (picks[team] as number) + 1;
    cursor[team] = (cursor[team] as number) + 1;
    out.push({ resultId, team: ranking.team, rank: out.length + 1 });
  }
  return out;
}

/** Per team (in `teams` order): credited positions (rank ≤ depth), and which team took rank 1. */
export function balanceCounts(list: InterleavedList): { positions: number[]; firstPickTeam: number | null } {
  const index = new Map(list.teams.map((t, i) => [t, i]));
  const positions = list.teams.map(() => 0);
  for (const r of list.results) {
    if (r.rank > list.depth) break;
    const i = index.get(r.team);
    if (i !== undefined) positions[i] = (positions[i] as number) + 1;
  }
  const first = list.results[0];
  return { positions, firstPickTeam: first ? (index.get(first.team) ?? null) : null };
}
