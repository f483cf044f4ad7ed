import { describe, expect, it } from 'vitest';
import { evaluate, splitByTime } from '../evaluation/evaluate.js';
import { fitClickModel } from '../fit.js';
import { simulateClickLog } from '../sessions/simulate.js';
import { relevanceCorrelation, trueAttractiveness, trueDbnRelevance } from '../../../test/support/click-model-truth.js';

// 50 queries × 10 documents, all 10 shown per session in a random order, λ = 0.9.
const sim = simulateClickLog({ model: 'dbn', seed: 2009, queries: 50, docsPerQuery: 10, sessions: 100_000 });
const { train, heldOut } = splitByTime(sim.sessions, 0.2);

describe('DBN recovers a DBN-generated log', () => {
  const model = fitClickModel(sim.sessions, { algorithm: 'dbn' });

  it('orders documents like the true α·σ (Spearman >= 0.95)', () => {
    const { rho, pairs } = relevanceCorrelation(model, sim, trueDbnRelevance);
    expect(pairs).toBe(500);
    expect(rho).toBeGreaterThanOrEqual(0.95);
  });

  it('recovers attractiveness and satisfaction separately', () => {
    expect(relevanceCorrelation(model, sim, trueAttractiveness, 50, (e) => e.attractiveness).rho).toBeGreaterThan(0.95);
    const satisfaction = relevanceCorrelation(
      model,
      sim,
      (t) => t.satisfaction,
      50,
      (e) => e.satisfaction ?? 0,
    );
    expect(satisfaction.rho).toBeGreaterThan(0.9);
  });

  it('recovers the continuation probability', () => {
    expect(Math.abs((model.toJSON().params.continuation as number) - 0.9)).toBeLessThan(0.02);
  });

  it('reports a decreasing implied examination starting at 1', () => {
    expect(model.examination[0]).toBe(1);
    for (let r = 1; r < 10; r += 1) {
      expect(model.examination[r] as number).toBeLessThan(model.examination[r - 1] as number);
    }
  });
});

describe('held-out comparison on DBN data', () => {
  const ctr = evaluate(fitClickModel(train, { algorithm: 'ctr' }), heldOut);
  const dbn = evaluate(fitClickModel(train, { algorithm: 'dbn' }), heldOut);
  const sdbn = evaluate(fitClickModel(train, { algorithm: 'sdbn' }), heldOut);

  it('DBN (the true family) has lower perplexity and higher log-likelihood than CTR', () => {
    expect(dbn.perplexity as number).toBeLessThan(ctr.perplexity as number);
    expect(dbn.conditionalPerplexity as number).toBeLessThan(ctr.conditionalPerplexity as number);
    expect(dbn.logLikelihood as number).toBeGreaterThan(ctr.logLikelihood as number);
  });

  it('full DBN fits better than its λ = 1 simplification when λ < 1', () => {
    expect(dbn.logLikelihood as number).toBeGreaterThan(sdbn.logLikelihood as number);
  });
});
