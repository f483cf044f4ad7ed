import { describe, expect, it } from 'vitest';
import { evaluate, splitByTime } from '../evaluation/evaluate.js';
import { fitClickModel } from '../fit.js';
import { simulateClickLog } from '../sessions/simulate.js';
import { relevanceCorrelation, trueAttractiveness } from '../../../test/support/click-model-truth.js';

// Cascade: scan top-down, stop at the first click. 100 queries × 12 documents.
const sim = simulateClickLog({ model: 'cascade', seed: 2008, queries: 100, docsPerQuery: 12, sessions: 40_000 });
const { train, heldOut } = splitByTime(sim.sessions, 0.2);

describe('cascade-generated log', () => {
  it('cascade model recovers attractiveness (Spearman >= 0.95)', () => {
    const model = fitClickModel(sim.sessions, { algorithm: 'cascade' });
    expect(relevanceCorrelation(model, sim, trueAttractiveness).rho).toBeGreaterThanOrEqual(0.95);
    expect(model.examination[0]).toBe(1);
  });

  it('SDBN recovers relevance, with every click satisfying (σ ≈ 1)', () => {
    const model = fitClickModel(sim.sessions, { algorithm: 'sdbn' });
    expect(relevanceCorrelation(model, sim, trueAttractiveness).rho).toBeGreaterThanOrEqual(0.95);
    const sigmas = model
      .estimates()
      .filter((e) => e.clicks >= 20)
      .map((e) => e.satisfaction as number);
    expect(sigmas.length).toBeGreaterThan(100);
    for (const sigma of sigmas) expect(sigma).toBeGreaterThan(0.9);
  });

  it('held out: cascade beats CTR on perplexity', () => {
    const cascade = evaluate(fitClickModel(train, { algorithm: 'cascade' }), heldOut);
    const ctr = evaluate(fitClickModel(train, { algorithm: 'ctr' }), heldOut);
    expect(cascade.perplexity as number).toBeLessThan(ctr.perplexity as number);
    expect(cascade.logLikelihood as number).toBeGreaterThan(ctr.logLikelihood as number);
  });

  it('cascade data has at most one click per session', () => {
    expect(sim.sessions.every((s) => s.clicks.filter(Boolean).length <= 1)).toBe(true);
  });
});
