import { describe, expect, it } from 'vitest';
import { evaluate, splitByTime } from './evaluate.js';
import { fitClickModel } from '../fit.js';
import { simulateClickLog } from '../sessions/simulate.js';
import { CLICK_MODEL_ALGORITHMS, type SearchSession } from '../types.js';

const one = (clicked: boolean, timestamp?: number): SearchSession => ({
  queryHash: 'q',
  resultIds: ['a'],
  clicks: [clicked],
  ...(timestamp === undefined ? {} : { timestamp }),
});

describe('evaluate (hand-computed)', () => {
  it('computes log-likelihood and perplexity from the click probabilities', () => {
    // CTR of a = (3 + 1) / (4 + 2) = 2/3
    const model = fitClickModel([one(true), one(true), one(true), one(false)], { algorithm: 'ctr' });
    const result = evaluate(model, [one(true), one(false)]);
    expect(result.sessions).toBe(2);
    expect(result.logLikelihood).toBeCloseTo((Math.log(2 / 3) + Math.log(1 / 3)) / 2, 12);
    // 2^(-(log2(2/3) + log2(1/3)) / 2) = sqrt(9/2)
    expect(result.perplexityByRank[0]).toBeCloseTo(Math.sqrt(4.5), 12);
    expect(result.perplexity).toBeCloseTo(Math.sqrt(4.5), 12);
  });

  it('clamps impossible events instead of returning -Infinity', () => {
    // cascade gives a second click probability 0
    const model = fitClickModel([{ queryHash: 'q', resultIds: ['a', 'b'], clicks: [true, false] }], { algorithm: 'cascade' });
    const result = evaluate(model, [{ queryHash: 'q', resultIds: ['a', 'b'], clicks: [true, true] }], { epsilon: 1e-6 });
    expect(Number.isFinite(result.logLikelihood)).toBe(true);
    expect(result.conditionalPerplexityByRank[1]).toBeCloseTo(1e6, 0);
  });
});

describe('click probabilities are a consistent distribution', () => {
  const sim = simulateClickLog({ model: 'dbn', seed: 17, queries: 5, docsPerQuery: 6, depth: 4, sessions: 2000 });
  const session = sim.sessions[0] as SearchSession;

  it.each(CLICK_MODEL_ALGORITHMS)('%s: Π P(c_r | c_<r) sums to 1 and its marginals are the full click probabilities', (algorithm) => {
    const model = fitClickModel(sim.sessions, { algorithm, maxDepth: 4 });
    const n = session.resultIds.length;
    let total = 0;
    const marginal = new Array<number>(n).fill(0);
    for (let bits = 0; bits < 1 << n; bits += 1) {
      const clicks = Array.from({ length: n }, (_, r) => ((bits >> r) & 1) === 1);
      const { conditional } = model.clickProbabilities({ ...session, clicks });
      const p = clicks.reduce((acc, c, r) => acc * (c ? (conditional[r] as number) : 1 - (conditional[r] as number)), 1);
      total += p;
      clicks.forEach((c, r) => {
        if (c) marginal[r] = (marginal[r] as number) + p;
      });
    }
    expect(total).toBeCloseTo(1, 12);
    const predicted = model.clickProbabilities(session).marginal;
    marginal.forEach((m, r) => expect(predicted[r] as number).toBeCloseTo(m, 12));
  });
});

describe('splitByTime', () => {
  it('holds out the latest sessions', () => {
    const sessions = [one(true, 30), one(false, 10), one(true, 20), one(false, 40)];
    const { train, heldOut } = splitByTime(sessions, 0.5);
    expect(train.map((s) => s.timestamp)).toEqual([10, 20]);
    expect(heldOut.map((s) => s.timestamp)).toEqual([30, 40]);
  });

  it('puts untimed sessions first, in input order, and handles the edges', () => {
    const a = one(true);
    const b = one(false);
    const { train, heldOut } = splitByTime([one(true, 1), a, b], 1 / 3);
    expect(train[0]).toBe(a);
    expect(train[1]).toBe(b);
    expect(heldOut).toHaveLength(1);
    expect(splitByTime([a, b], 0).heldOut).toEqual([]);
    expect(splitByTime([], 0.3)).toEqual({ train: [], heldOut: [] });
    expect(() => splitByTime([a], 1.5)).toThrow(RangeError);
  });
});
