import { describe, expect, it } from 'vitest';
import { evaluate, splitByTime } from '../evaluation/evaluate.js';
import { fitClickModel } from '../fit.js';
import { simulateClickLog } from '../sessions/simulate.js';
import { relevanceCorrelation, trueAttractiveness } from '../../../test/support/click-model-truth.js';

// 100 queries × 15 documents, 10 shown per session in a random order: every pair
// appears at every rank, ~400 impressions each.
const sim = simulateClickLog({ model: 'pbm', seed: 20150701, queries: 100, docsPerQuery: 15, sessions: 60_000 });
const { train, heldOut } = splitByTime(sim.sessions, 0.2);

describe('PBM recovers a PBM-generated log', () => {
  const model = fitClickModel(sim.sessions, { algorithm: 'pbm' });

  it('orders documents like the true attractiveness (Spearman >= 0.95)', () => {
    const { rho, pairs } = relevanceCorrelation(model, sim, trueAttractiveness);
    expect(pairs).toBe(1500);
    expect(rho).toBeGreaterThanOrEqual(0.95);
  });

  it('recovers examination per rank within ±0.03', () => {
    expect(model.examination).toHaveLength(10);
    model.examination.forEach((gamma, r) => {
      expect(Math.abs(gamma - (sim.examination[r] as number))).toBeLessThanOrEqual(0.03);
    });
  });

  it('reports counts', () => {
    expect(model.summary.sessions).toBe(60_000);
    expect(model.summary.impressions).toBe(600_000);
    expect(model.summary.pairs).toBe(1500);
    expect(model.summary.iterations).toBeGreaterThan(0);
  });
});

describe('held-out comparison on PBM data', () => {
  const ctr = evaluate(fitClickModel(train, { algorithm: 'ctr' }), heldOut);
  const pbm = evaluate(fitClickModel(train, { algorithm: 'pbm' }), heldOut);
  const ubm = evaluate(fitClickModel(train, { algorithm: 'ubm' }), heldOut);

  it('UBM log-likelihood beats CTR', () => {
    expect(ubm.logLikelihood as number).toBeGreaterThan(ctr.logLikelihood as number);
  });

  it('PBM (the true family) has lower perplexity than CTR, overall and at every rank below 1', () => {
    expect(pbm.perplexity as number).toBeLessThan(ctr.perplexity as number);
    for (let r = 1; r < 10; r += 1) {
      expect(pbm.perplexityByRank[r] as number).toBeLessThan(ctr.perplexityByRank[r] as number);
    }
  });

  it('UBM nests PBM, so its attractiveness also recovers the truth', () => {
    const model = fitClickModel(sim.sessions, { algorithm: 'ubm' });
    expect(relevanceCorrelation(model, sim, trueAttractiveness).rho).toBeGreaterThanOrEqual(0.95);
  });
});

describe('PBM on a long-tailed log (Zipf query popularity, median pair seen 3 times)', () => {
  const tail = simulateClickLog({ model: 'pbm', seed: 2, queries: 5000, docsPerQuery: 20, sessions: 100_000, zipfExponent: 1 });
  const maxExamError = (minImpressions: number): number => {
    const model = fitClickModel(tail.sessions, { algorithm: 'pbm', examinationMinImpressions: minImpressions });
    return Math.max(...model.examination.map((g, r) => Math.abs(g - (tail.examination[r] as number))));
  };

  it('estimates examination from well-observed pairs only, avoiding the flattening bias of sparse pairs', () => {
    expect(maxExamError(20)).toBeLessThanOrEqual(0.03);
    expect(maxExamError(0)).toBeGreaterThan(0.06);
  });
});
