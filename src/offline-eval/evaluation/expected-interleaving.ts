import type { EncodedSearches } from '../log/encode.js';
import type { InterleavingExpectation } from '../types.js';
import { expectedTeamDraftCredit, outcome } from './interleaving.js';
import type { EvaluationLists, ListSet } from './lists.js';

const slice = (lists: ListSet, l: number): string[] => {
  const start = lists.start[l] as number;
  return lists.docs.slice(start, start + (lists.length[l] as number));
};

/**
 * The expected interleaving outcome over the evaluated queries: per query, the candidate's list
 * against its baseline list (its own, or its most searched logged list), credits under PBM with
 * the estimator's point estimates γ̂; each query counts as often as it was searched.
 */
export function expectedInterleaving(
  log: EncodedSearches,
  lists: EvaluationLists,
  frequency: Float64Array,
  topClick: (pair: number) => number,
  propensity: Float64Array,
  depth: number,
): InterleavingExpectation {
  let wins = 0;
  let losses = 0;
  let ties = 0;
  for (let q = 0; q < lists.candidate.count; q += 1) {
    const weight = frequency[q] as number;
    const b = lists.queryBaseline[q] as number;
    const candidate = slice(lists.candidate, q);
    const baseline = b >= 0 ? slice(lists.baseline, b) : [];
    const index = log.pairIndex[q] as Map<string, number>;
    const same = candidate.length === baseline.length && candidate.every((d, i) => d === baseline[i]);
    // Identical lists tie by symmetry: the coin decides who contributes each shared result.
    const result = same
      ? 'tie'
      : outcome(expectedTeamDraftCredit(candidate, baseline, (d) => topClick(index.get(d) ?? -1), propensity, depth));
    if (result === 'win') wins += weight;
    else if (result === 'loss') losses += weight;
    else ties += weight;
  }
  const decided = wins + losses;
  return { wins, losses, ties, shareWon: decided > 0 ? wins / decided : 0.5 };
}
