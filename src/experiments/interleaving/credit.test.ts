import { describe, expect, it } from 'vitest';
import {
  applyOutcome,
  creditClicks,
  emptyQueryCredit,
  outcomeChanges,
  queryOutcomes,
  type CreditableEvent,
  type PairOutcome,
  type ShownList,
} from './credit.js';

const RECORDED = 1_700_000_000_000;
/** A B A B A B, depth 4: r5 and r6 are shown but below depth. */
const list: ShownList = {
  teams: ['A', 'B'],
  depth: 4,
  recordedAt: RECORDED,
  results: ['A', 'B', 'A', 'B', 'A', 'B'].map((team, i) => ({ resultId: `r${i + 1}`, team, rank: i + 1 })),
};
const click = (resultId: string | null, at = RECORDED + 1000, userAction: string | null = 'click'): CreditableEvent => ({
  resultId,
  userAction,
  receivedAt: at,
});

describe('credit rules', () => {
  it.each<[string, CreditableEvent[], number[], PairOutcome, Partial<Record<string, number>>]>([
    ['no click: a tie', [], [0, 0], 'tie', {}],
    ['a click on team A', [click('r1')], [1, 0], 'win', {}],
    ['a click on team B', [click('r2')], [0, 1], 'loss', {}],
    ['one click on each team: a tie', [click('r1'), click('r4')], [1, 1], 'tie', {}],
    ['two on A, one on B', [click('r1'), click('r3'), click('r2')], [2, 1], 'win', {}],
    ['a result not shown: ignored, counted', [click('elsewhere')], [0, 0], 'tie', { notShown: 1 }],
    ['a click without a result id: not shown', [click(null)], [0, 0], 'tie', { notShown: 1 }],
    ['a click below depth: ignored, counted', [click('r5'), click('r2')], [0, 1], 'loss', { belowDepth: 1 }],
    ['a click received before the list was recorded: ignored, counted', [click('r1', RECORDED - 1)], [0, 0], 'tie', { beforeList: 1 }],
    ['a click at the very moment of recording counts', [click('r1', RECORDED)], [1, 0], 'win', {}],
    [
      'the same result clicked three times counts once',
      [click('r2'), click('r2'), click('r2'), click('r1')],
      [1, 1],
      'tie',
      { repeated: 2 },
    ],
    [
      'non-click actions are not clicks',
      [click('r1', RECORDED + 5, 'impression'), click('r3', RECORDED + 5, 'purchase')],
      [0, 0],
      'tie',
      {},
    ],
  ])('%s', (_name, events, clicks, outcome, ignored) => {
    const credit = creditClicks(list, events);
    expect(credit.clicks).toEqual(clicks);
    expect(credit.ignored).toEqual({ notShown: 0, belowDepth: 0, beforeList: 0, repeated: 0, ...ignored });
    expect(queryOutcomes(list.teams, credit.clicks)).toEqual([{ team: 'A', opponent: 'B', outcome }]);
  });

  it('folds events in batches to the same state as all at once', () => {
    const events = [click('r1'), click('zz'), click('r2'), click('r2'), click('r4', RECORDED - 5), click('r3'), click('r6')];
    const all = creditClicks(list, events);
    let state = emptyQueryCredit(list);
    for (const e of events) state = creditClicks(list, [e], state);
    expect(state.clicks).toEqual(all.clicks);
    expect(state.ignored).toEqual(all.ignored);
    expect(new Set(state.creditedResultIds)).toEqual(new Set(all.creditedResultIds));
  });

  it('reports which pairs changed, so a store updates each unit exactly once per change', () => {
    const before = creditClicks(list, [click('r2')]);
    const after = creditClicks(list, [click('r1'), click('r3')], before);
    expect(outcomeChanges(list.teams, emptyQueryCredit(list), before)).toEqual([{ team: 'A', opponent: 'B', from: 'tie', to: 'loss' }]);
    expect(outcomeChanges(list.teams, before, after)).toEqual([{ team: 'A', opponent: 'B', from: 'loss', to: 'win' }]);
    expect(outcomeChanges(list.teams, after, creditClicks(list, [click('r5')], after))).toEqual([]);
    const unit = applyOutcome(applyOutcome({ wins: 0, losses: 1, ties: 2 }, 'loss', -1), 'win');
    expect(unit).toEqual({ wins: 1, losses: 0, ties: 2 });
  });

  it('compares every pair of a multileaved list', () => {
    const multi: ShownList = {
      teams: ['A', 'B', 'C'],
      depth: 10,
      recordedAt: RECORDED,
      results: ['A', 'B', 'C', 'C', 'A', 'B'].map((team, i) => ({ resultId: `m${i}`, team, rank: i + 1 })),
    };
    const credit = creditClicks(multi, [click('m2'), click('m3'), click('m0')]);
    expect(credit.clicks).toEqual([1, 0, 2]);
    expect(queryOutcomes(multi.teams, credit.clicks)).toEqual([
      { team: 'A', opponent: 'B', outcome: 'win' },
      { team: 'A', opponent: 'C', outcome: 'loss' },
      { team: 'B', opponent: 'C', outcome: 'loss' },
    ]);
  });
});
