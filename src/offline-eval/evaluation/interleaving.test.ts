import { describe, expect, it } from 'vitest';
import { evaluateCandidate } from './evaluate.js';
import { expectedTeamDraftCredit, outcome } from './interleaving.js';

const p = Float64Array.from([1, 0.5, 0.25]);

describe('expected team-draft outcome', () => {
  it('two disjoint orders of the same two results', () => {
    // γ a 0.8, b 0.2. Candidate first: a at 1 (0.8), baseline b at 2 (0.5·0.2 = 0.1).
    // Baseline first: b at 1 (0.2), candidate a at 2 (0.5·0.8 = 0.4). Means: 0.6 and 0.15.
    const gamma: Record<string, number> = { a: 0.8, b: 0.2 };
    const credit = expectedTeamDraftCredit(['a', 'b'], ['b', 'a'], (d) => gamma[d] ?? 0, p, 2);
    expect(credit.candidate).toBeCloseTo(0.6, 12);
    expect(credit.baseline).toBeCloseTo(0.15, 12);
    expect(outcome(credit)).toBe('win');
  });

  it('a shared top result and a second coin flip', () => {
    // Candidate [a, b, c], baseline [a, c, b], γ a .5, b .4, c .1, p (1, .5, .25):
    //  A,A: A a@1 .5 + b@3 .1 = .6,  B c@2 .05    A,B: A .5,  B c@2 .05 + b@3 .1 = .15
    //  B,A: B a@1 .5, A b@2 .2 + c@3 .025 = .225  B,B: A .2,  B .5 + c@3 .025 = .525
    // Means: A 1.525/4 = 0.38125, B 1.225/4 = 0.30625.
    const gamma: Record<string, number> = { a: 0.5, b: 0.4, c: 0.1 };
    const credit = expectedTeamDraftCredit(['a', 'b', 'c'], ['a', 'c', 'b'], (d) => gamma[d] ?? 0, p, 3);
    expect(credit.candidate).toBeCloseTo(0.38125, 12);
    expect(credit.baseline).toBeCloseTo(0.30625, 12);
  });

  it('identical lists tie', () => {
    expect(outcome(expectedTeamDraftCredit(['a', 'b'], ['a', 'b'], () => 0.5, p, 2))).toBe('tie');
  });

  it('weights queries by how often they were searched', () => {
    // q1 (3 searches): the candidate puts the clicked result first, a win; q2 (1 search): it puts it last, a loss.
    const s = (q: string, i: number, ids: string[], clicked: string) => ({
      queryHash: q,
      sessionId: `${q}${i}`,
      resultIds: ids,
      clicks: ids.map((d) => d === clicked),
      satisfied: ids.map(() => false),
    });
    const searches = [s('q1', 1, ['x', 'y'], 'y'), s('q1', 2, ['y', 'x'], 'y'), s('q1', 3, ['x', 'y'], 'y'), s('q2', 1, ['u', 'v'], 'u')];
    const e = evaluateCandidate({
      searches,
      candidate: new Map([
        ['q1', ['y', 'x']],
        ['q2', ['v', 'u']],
      ]),
      propensities: [1, 0.5],
      estimator: 'snips',
      metrics: ['mrr'],
      bootstrap: 0,
    });
    // q1's baseline is its most searched logged list [x, y]; q2's is [u, v].
    expect(e.interleaving).toEqual({ wins: 3, losses: 1, ties: 0, shareWon: 0.75 });
  });
});
