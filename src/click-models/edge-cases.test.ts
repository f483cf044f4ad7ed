import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluation/evaluate.js';
import { fitClickModel } from './fit.js';
import { toJudgments, toOpenSearchJudgments } from './judgments/judgments.js';
import { CLICK_MODEL_ALGORITHMS, type SearchSession } from './types.js';

const single: SearchSession = { queryHash: 'q', resultIds: ['a', 'b', 'c'], clicks: [false, true, false] };
const finite = (xs: readonly number[]): boolean => xs.every((x) => Number.isFinite(x));

describe.each(CLICK_MODEL_ALGORITHMS)('%s on degenerate input', (algorithm) => {
  it('fits an empty log without throwing', () => {
    const model = fitClickModel([], { algorithm });
    expect(model.summary).toMatchObject({ sessions: 0, impressions: 0, pairs: 0 });
    expect(model.examination).toHaveLength(10);
    expect(finite(model.examination)).toBe(true);
    expect(model.estimates()).toEqual([]);
    const probs = model.clickProbabilities(single);
    expect(finite(probs.conditional) && finite(probs.marginal)).toBe(true);
    expect(toJudgments(model).judgments).toEqual([]);
    expect(toOpenSearchJudgments(toJudgments(model), { name: 'empty' }).judgmentRatings).toEqual([]);
  });

  it('fits a single session and evaluates it', () => {
    const model = fitClickModel([single], { algorithm });
    expect(model.summary).toMatchObject({ sessions: 1, impressions: 3, clicks: 1, pairs: 3 });
    const result = evaluate(model, [single]);
    expect(result.sessions).toBe(1);
    expect(Number.isFinite(result.logLikelihood)).toBe(true);
    expect(result.perplexityByRank.slice(0, 3).every((p) => p !== null && p >= 1)).toBe(true);
    expect(result.perplexityByRank.slice(3)).toEqual(Array(7).fill(null));
  });

  it('keeps every probability in [0, 1] and finite for unseen queries', () => {
    const model = fitClickModel([single, single], { algorithm });
    const probs = model.clickProbabilities({ queryHash: 'unseen', resultIds: ['x', 'y'], clicks: [true, true] });
    for (const p of [...probs.conditional, ...probs.marginal]) {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
    }
  });
});

describe('input handling', () => {
  it('evaluates an empty held-out set to nulls', () => {
    const result = evaluate(fitClickModel([single], { algorithm: 'pbm' }), []);
    expect(result).toMatchObject({ sessions: 0, logLikelihood: null, perplexity: null, conditionalPerplexity: null });
  });

  it('skips sessions with no results and truncates to maxDepth', () => {
    const long: SearchSession = {
      queryHash: 'q',
      resultIds: ['a', 'b', 'c', 'd', 'e'],
      clicks: [false, false, false, false, true],
    };
    const model = fitClickModel([long, { queryHash: 'q', resultIds: [], clicks: [] }], { algorithm: 'pbm', maxDepth: 3 });
    expect(model.summary).toMatchObject({ sessions: 1, impressions: 3, clicks: 0, pairs: 3 });
    expect(model.examination).toHaveLength(3);
    expect(model.clickProbabilities(long).marginal).toHaveLength(3);
  });

  it('rejects malformed sessions and configs', () => {
    const bad = { queryHash: 'q', resultIds: ['a', 'b'], clicks: [true] };
    expect(() => fitClickModel([bad], { algorithm: 'ctr' })).toThrow(RangeError);
    expect(() => fitClickModel([], { algorithm: 'nope' as 'ctr' })).toThrow(RangeError);
    expect(() => fitClickModel([], { algorithm: 'pbm', maxDepth: 0 })).toThrow(RangeError);
    expect(() => fitClickModel([], { algorithm: 'pbm', iterations: 0 })).toThrow(RangeError);
    expect(() => fitClickModel([], { algorithm: 'pbm', prior: { positive: 0, negative: 0 } })).toThrow(RangeError);
  });

  it('treats the same document under two queries as two pairs', () => {
    const model = fitClickModel([single, { queryHash: 'q2', resultIds: ['a'], clicks: [true] }], { algorithm: 'ctr' });
    expect(model.summary.pairs).toBe(4);
    expect(model.estimate('q2', 'a')?.clicks).toBe(1);
    expect(model.estimate('q', 'a')?.clicks).toBe(0);
  });
});
