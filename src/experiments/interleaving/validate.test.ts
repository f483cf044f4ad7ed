import { describe, expect, it } from 'vitest';
import { MAX_RESULTS_PER_RANKING } from './types.js';
import { duplicateIndexes, validateInterleaving } from './validate.js';

const r = (team: string, ...resultIds: string[]) => ({ team, resultIds });

describe('validateInterleaving names the offending variant and index', () => {
  it('accepts unequal, overlapping and empty lists', () => {
    expect(validateInterleaving('team-draft', [r('a', 'x', 'y', 'z'), r('b')])).toEqual([]);
    expect(validateInterleaving('team-draft-multileave', [r('a', 'x'), r('b', 'x', 'y'), r('c', 'q')], 10)).toEqual([]);
  });

  it.each([
    ['one variant for team draft', 'team-draft' as const, [r('a', 'x')], { code: 'TEAM_COUNT', rankingIndex: null }],
    ['three variants for team draft', 'team-draft' as const, [r('a'), r('b'), r('c')], { code: 'TEAM_COUNT' }],
    ['two variants for multileave', 'team-draft-multileave' as const, [r('a'), r('b')], { code: 'TEAM_COUNT' }],
    [
      'nine variants for multileave',
      'team-draft-multileave' as const,
      Array.from({ length: 9 }, (_, i) => r(`v${i}`)),
      { code: 'TEAM_COUNT' },
    ],
    [
      'a variant listed twice',
      'team-draft' as const,
      [r('a', 'x'), r('a', 'y')],
      { code: 'DUPLICATE_TEAM', rankingIndex: 1, team: 'a', firstIndex: 0 },
    ],
    [
      'a duplicated result',
      'team-draft' as const,
      [r('a', 'x', 'y'), r('b', 'p', 'q', 'p')],
      { code: 'DUPLICATE_RESULT', rankingIndex: 1, team: 'b', resultIndex: 2, firstIndex: 0 },
    ],
    ['an empty result id', 'team-draft' as const, [r('a', 'x', ''), r('b', 'y')], { code: 'EMPTY_RESULT_ID', team: 'a', resultIndex: 1 }],
  ])('%s', (_name, method, rankings, expected) => {
    const issues = validateInterleaving(method, rankings);
    expect(issues[0]).toMatchObject(expected);
    expect(issues[0]!.message.length).toBeGreaterThan(10);
  });

  it('refuses too many results and a bad depth', () => {
    const long = Array.from({ length: MAX_RESULTS_PER_RANKING + 1 }, (_, i) => `d${i}`);
    expect(validateInterleaving('team-draft', [r('a', ...long), r('b')])[0]).toMatchObject({ code: 'TOO_MANY_RESULTS', team: 'a' });
    expect(validateInterleaving('team-draft', [r('a'), r('b')], 0)[0]).toMatchObject({ code: 'INVALID_DEPTH' });
    expect(validateInterleaving('team-draft', [r('a'), r('b')], 2.5)[0]).toMatchObject({ code: 'INVALID_DEPTH' });
  });

  it('reports every duplicate, not only the first', () => {
    expect(duplicateIndexes(['a', 'b', 'a', 'b', 'a'])).toEqual([
      { index: 2, firstIndex: 0, id: 'a' },
      { index: 3, firstIndex: 1, id: 'b' },
      { index: 4, firstIndex: 0, id: 'a' },
    ]);
  });
});
