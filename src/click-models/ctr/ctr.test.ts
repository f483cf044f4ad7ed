import { describe, expect, it } from 'vitest';
import { fitClickModel } from '../fit.js';
import type { SearchSession } from '../types.js';

const q = 'q';
const session = (resultIds: string[], clicks: number[]): SearchSession => ({
  queryHash: q,
  resultIds,
  clicks: clicks.map((c) => c === 1),
});
// rank 1: 4 impressions, 2 clicks (CTR 0.5); rank 2: 4 impressions, 1 click (CTR 0.25)
const log = [session(['a', 'b'], [1, 0]), session(['b', 'a'], [1, 0]), session(['a', 'b'], [0, 1]), session(['a', 'c'], [0, 0])];

describe('COEC (hand-computed)', () => {
  it('follows OpenSearch: clicks / (impressions × CTR of the best rank seen)', () => {
    const model = fitClickModel(log, { algorithm: 'coec' });
    // a: 1 click, 4 impressions, best rank 1 → 1 / (4 × 0.5)
    expect(model.estimate(q, 'a')?.relevance).toBeCloseTo(0.5, 12);
    // b: 2 clicks, 3 impressions, best rank 1 → 2 / (3 × 0.5)
    expect(model.estimate(q, 'b')?.relevance).toBeCloseTo(4 / 3, 12);
    // c: no clicks → 0
    expect(model.estimate(q, 'c')?.relevance).toBe(0);
    // ranks never shown have CTR 0
    expect(model.toJSON().params.rankCtr).toEqual([0.5, 0.25, ...Array(8).fill(0)]);
  });

  it('per-impression expectation sums the rank CTR of every impression', () => {
    const model = fitClickModel(log, { algorithm: 'coec', coecExpectation: 'per-impression' });
    expect(model.estimate(q, 'a')?.relevance).toBeCloseTo(1 / 1.75, 12);
    expect(model.estimate(q, 'b')?.relevance).toBeCloseTo(2, 12);
  });

  it('predicts rank CTR × COEC shrunk towards 1', () => {
    const model = fitClickModel(log, { algorithm: 'coec' });
    // b: (2 + 2) / (1.5 + 2) with the default Beta(1, 1) prior (k = 2 pseudo-clicks)
    const probs = model.clickProbabilities(session(['b', 'x'], [0, 0]));
    expect(probs.marginal[0]).toBeCloseTo((4 / 3.5) * 0.5, 12);
    // unseen x: population default multiplier
    expect(probs.marginal[1]).toBeCloseTo(model.toJSON().defaults.attractiveness * 0.25, 12);
  });
});

describe('CTR (hand-computed)', () => {
  const model = fitClickModel(log, { algorithm: 'ctr' });
  it('smooths document CTR with Beta(1, 1)', () => {
    expect(model.estimate(q, 'a')?.relevance).toBeCloseTo(2 / 6, 12);
    expect(model.estimate(q, 'b')?.relevance).toBeCloseTo(3 / 5, 12);
    expect(model.estimate(q, 'c')?.relevance).toBeCloseTo(1 / 3, 12);
    expect(model.estimate(q, 'a')).toMatchObject({ impressions: 4, clicks: 1 });
  });
  it('uses rank CTR normalised to its maximum as examination', () => {
    expect(model.examination.slice(0, 2)).toEqual([1, 0.5]);
  });
  it('returns undefined for unseen pairs', () => {
    expect(model.estimate(q, 'zzz')).toBeUndefined();
    expect(model.estimate('other', 'a')).toBeUndefined();
  });
});
