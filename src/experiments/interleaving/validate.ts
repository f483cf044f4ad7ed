import { MAX_DEPTH, MAX_RESULTS_PER_RANKING, TEAM_LIMITS, type InterleavingMethod, type Ranking } from './types.js';

export type InterleavingIssueCode =
  'TEAM_COUNT' | 'DUPLICATE_TEAM' | 'DUPLICATE_RESULT' | 'EMPTY_RESULT_ID' | 'TOO_MANY_RESULTS' | 'INVALID_DEPTH';

/**
 * One problem with an interleaving request, located precisely enough for a 400 that names the
 * field: `rankingIndex`/`team` say which variant's list, `resultIndex` which entry. For
 * POST …/interleave the pointer is `/rankings/<team>/<resultIndex>`.
 */
export interface InterleavingIssue {
  readonly code: InterleavingIssueCode;
  readonly message: string;
  readonly rankingIndex: number | null;
  readonly team: string | null;
  readonly resultIndex: number | null;
  /** For DUPLICATE_RESULT / DUPLICATE_TEAM: the index of the first occurrence. */
  readonly firstIndex?: number;
}

/** Entries of one list that repeat an earlier entry, with the index they repeat. */
export function duplicateIndexes(ids: readonly string[]): { index: number; firstIndex: number; id: string }[] {
  const seen = new Map<string, number>();
  const out: { index: number; firstIndex: number; id: string }[] = [];
  ids.forEach((id, index) => {
    const firstIndex = seen.get(id);
    if (firstIndex === undefined) seen.set(id, index);
    else out.push({ index, firstIndex, id });
  });
  return out;
}

/**
 * Everything wrong with the rankings, in order (empty when they can be interleaved). Lists may
 * differ in length and content, and a list may be empty (a ranker that found nothing); a result
 * may not appear twice in one list, because its rank there would be ambiguous.
 */
export function validateInterleaving(method: InterleavingMethod, rankings: readonly Ranking[], depth?: number): InterleavingIssue[] {
  const issues: InterleavingIssue[] = [];
  const { min, max } = TEAM_LIMITS[method];
  if (rankings.length < min || rankings.length > max) {
    const wanted = min === max ? `exactly ${min}` : `${min} to ${max}`;
    issues.push({
      code: 'TEAM_COUNT',
      message: `${method} needs ${wanted} rankings, got ${rankings.length}`,
      rankingIndex: null,
      team: null,
      resultIndex: null,
    });
  }
  if (depth !== undefined && !(Number.isInteger(depth) && depth >= 1 && depth <= MAX_DEPTH)) {
    issues.push({
      code: 'INVALID_DEPTH',
      message: `depth must be an integer from 1 to ${MAX_DEPTH}`,
      rankingIndex: null,
      team: null,
      resultIndex: null,
    });
  }
  for (const dup of duplicateIndexes(rankings.map((r) => r.team))) {
    issues.push({
      code: 'DUPLICATE_TEAM',
      message: `variant "${dup.id}" has two rankings (entries ${dup.firstIndex} and ${dup.index})`,
      rankingIndex: dup.index,
      team: dup.id,
      resultIndex: null,
      firstIndex: dup.firstIndex,
    });
  }
  rankings.forEach((ranking, rankingIndex) => {
    const { team, resultIds } = ranking;
    if (resultIds.length > MAX_RESULTS_PER_RANKING) {
      issues.push({
        code: 'TOO_MANY_RESULTS',
        message: `the ranking of "${team}" has ${resultIds.length} results; at most ${MAX_RESULTS_PER_RANKING}`,
        rankingIndex,
        team,
        resultIndex: null,
      });
      return;
    }
    resultIds.forEach((id, resultIndex) => {
      if (typeof id !== 'string' || id.length === 0) {
        issues.push({ code: 'EMPTY_RESULT_ID', message: `result ids must be non-empty strings`, rankingIndex, team, resultIndex });
      }
    });
    for (const dup of duplicateIndexes(resultIds)) {
      issues.push({
        code: 'DUPLICATE_RESULT',
        message: `"${dup.id}" appears twice in the ranking of "${team}" (positions ${dup.firstIndex} and ${dup.index})`,
        rankingIndex,
        team,
        resultIndex: dup.index,
        firstIndex: dup.firstIndex,
      });
    }
  });
  return issues;
}
