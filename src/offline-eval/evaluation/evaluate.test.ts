import { describe, expect, it } from 'vitest';
import { fitClickModel, restoreClickModel, type SerializedClickModel } from '../../click-models/index.js';
import type { EvalMetric, LoggedSearch } from '../types.js';
import { evaluateCandidate } from './evaluate.js';

const search = (sessionId: string, resultIds: string[], clicked: string[], satisfied: string[] = []): LoggedSearch => ({
  queryHash: 'q',
  sessionId,
  resultIds,
  clicks: resultIds.map((d) => clicked.includes(d)),
  satisfied: resultIds.map((d) => satisfied.includes(d)),
});

// Four searches of one query, propensities [1, 0.5]:
//   s1 [a, b] click a (satisfied)   s2 [a, b] click b   s3 [b, a] click b   s4 [b, a] no click
const searches = [
  search('s1', ['a', 'b'], ['a'], ['a']),
  search('s2', ['a', 'b'], ['b']),
  search('s3', ['b', 'a'], ['b']),
  search('s4', ['b', 'a'], []),
];
const metrics: EvalMetric[] = ['clicks_per_search', 'mrr', 'abandonment_rate', 'ctr@2', 'satisfied_clicks'];
const base = { searches, candidate: new Map([['q', ['b', 'a']]]), propensities: [1, 0.5], metrics, depth: 2, bootstrap: 0 };
const value = (e: ReturnType<typeof evaluateCandidate>, metric: EvalMetric) => e.metrics.find((m) => m.metric === metric);

describe('evaluateCandidate by hand', () => {
  it('ips: γ̂ = mean of c / p over the pair’s impressions', () => {
    // a: Σ c/p = 1/1 (s1) over n = 4 → γ̂_a = 0.25;  b: 1/0.5 (s2) + 1/1 (s3) = 3 over 4 → γ̂_b = 0.75.
    // Candidate [b, a]: c = (0.75, 0.5·0.25 = 0.125): clicks 0.875, ctr@2 0.4375,
    //   mrr 0.75 + 0.25·0.125/2 = 0.765625, abandonment 0.25·0.875 = 0.21875, satisfied 0.5·(1/4) = 0.125.
    // Baseline = the logged lists: [a, b] twice (c = 0.25, 0.375: clicks 0.625, mrr 0.25 + 0.75·0.375/2 = 0.390625,
    //   abandonment 0.75·0.625 = 0.46875) and [b, a] twice (the candidate's values).
    const e = evaluateCandidate({ ...base, estimator: 'ips' });
    expect(e.enoughCoverage).toBe(true);
    expect(value(e, 'clicks_per_search')?.candidate.estimate).toBeCloseTo(0.875, 12);
    expect(value(e, 'clicks_per_search')?.baseline.estimate).toBeCloseTo(0.75, 12);
    expect(value(e, 'clicks_per_search')?.difference.estimate).toBeCloseTo(0.125, 12);
    expect(value(e, 'clicks_per_search')?.relativeDifference.estimate).toBeCloseTo(0.125 / 0.75, 12);
    expect(value(e, 'ctr@2')?.candidate.estimate).toBeCloseTo(0.4375, 12);
    expect(value(e, 'mrr')?.candidate.estimate).toBeCloseTo(0.765625, 12);
    expect(value(e, 'mrr')?.baseline.estimate).toBeCloseTo((0.390625 + 0.765625) / 2, 12);
    expect(value(e, 'abandonment_rate')?.candidate.estimate).toBeCloseTo(0.21875, 12);
    expect(value(e, 'abandonment_rate')?.baseline.estimate).toBeCloseTo((0.46875 + 0.21875) / 2, 12);
    expect(value(e, 'satisfied_clicks')?.candidate.estimate).toBeCloseTo(0.125, 12);
    // Logged: clicks (1 + 1 + 1 + 0)/4, mrr (1 + 1/2 + 1 + 0)/4, one search of four without a click.
    expect(e.observedBaseline).toMatchObject({
      clicks_per_search: 0.75,
      mrr: 0.625,
      abandonment_rate: 0.25,
      'ctr@2': 0.375,
      satisfied_clicks: 0.25,
    });
    expect([e.searches, e.queries, e.sessions, e.coverage]).toEqual([4, 1, 4, 1]);
  });

  it('snips: γ̂ = Σ c / Σ p', () => {
    // a: 1 click over p = 1 + 1 + 0.5 + 0.5 = 3 → 1/3;  b: 2 clicks over 3 → 2/3.
    // Candidate [b, a]: 2/3 + 0.5·1/3 = 5/6; baseline: ([a, b] 1/3 + 0.5·2/3 = 2/3, [b, a] 5/6) / 2 = 3/4.
    const e = evaluateCandidate({ ...base, estimator: 'snips' });
    expect(value(e, 'clicks_per_search')?.candidate.estimate).toBeCloseTo(5 / 6, 12);
    expect(value(e, 'clicks_per_search')?.baseline.estimate).toBeCloseTo(3 / 4, 12);
  });

  it('the Kish effective sample size of the impression weights', () => {
    // Candidate b at rank 1 (p 1): b's impressions at ranks 2, 2, 1, 1 weigh (4/4)·1/p_k = 2, 2, 1, 1;
    // a at rank 2 (p 0.5): a's impressions at ranks 1, 1, 2, 2 weigh 0.5, 0.5, 1, 1.
    // Σw = 9, Σw² = 12.5: ESS = 81 / 12.5 = 6.48.
    const e = evaluateCandidate({ ...base, estimator: 'ips' });
    expect(value(e, 'clicks_per_search')?.effectiveSampleSize).toBeCloseTo(6.48, 12);
  });

  // A DBN model with chosen parameters: α_a 0.4, α_b 0.6, σ 0.5 for both, λ 0.8.
  const fitted = fitClickModel(searches, { algorithm: 'dbn', maxDepth: 2 }).toJSON();
  const dbn: SerializedClickModel = {
    ...fitted,
    pairs: {
      ...fitted.pairs,
      attractiveness: fitted.pairs.doc.map((d) => (d === 'a' ? 0.4 : 0.6)),
      satisfaction: fitted.pairs.doc.map(() => 0.5),
    },
    params: { ...fitted.params, continuation: 0.8 },
  };

  it('dm-dbn: the click model’s clicks and first click', () => {
    // [b, a]: c_1 = 0.6, ε_2 = 0.8·(1 − 0.6·0.5) = 0.56, c_2 = 0.4·0.56 = 0.224: clicks 0.824.
    // First click: f_1 = 0.6, u_2 = (1 − 0.6)·0.8 = 0.32, f_2 = 0.4·0.32 = 0.128: mrr 0.6 + 0.064 = 0.664, abandonment 0.272.
    const e = evaluateCandidate({ ...base, estimator: 'dm-dbn', clickModels: { dbn } });
    expect(value(e, 'clicks_per_search')?.candidate.estimate).toBeCloseTo(0.824, 12);
    expect(value(e, 'mrr')?.candidate.estimate).toBeCloseTo(0.664, 12);
    expect(value(e, 'abandonment_rate')?.candidate.estimate).toBeCloseTo(0.272, 12);
    // The same clicks as src/click-models predicts for the list.
    const marginal = restoreClickModel(dbn).clickProbabilities({ queryHash: 'q', resultIds: ['b', 'a'], clicks: [false, false] }).marginal;
    expect(value(e, 'clicks_per_search')?.candidate.estimate).toBeCloseTo((marginal[0] as number) + (marginal[1] as number), 12);
    // Satisfied clicks: ŝ_a = 1 (a's one click was satisfied), ŝ_b = 0: 0.224·1.
    expect(value(e, 'satisfied_clicks')?.candidate.estimate).toBeCloseTo(0.224, 12);
  });

  it('dm-pbm: α·γ_r with the model’s examination', () => {
    const pbmFit = fitClickModel(searches, { algorithm: 'pbm', maxDepth: 2 }).toJSON();
    const pbm: SerializedClickModel = {
      ...pbmFit,
      pairs: { ...pbmFit.pairs, attractiveness: pbmFit.pairs.doc.map((d) => (d === 'a' ? 0.4 : 0.6)) },
      params: { gamma: [0.9, 0.5] },
    };
    // [b, a]: c = (0.6·0.9, 0.4·0.5) = (0.54, 0.2): clicks 0.74, mrr 0.54 + 0.46·0.2/2 = 0.586.
    const e = evaluateCandidate({ ...base, estimator: 'dm-pbm', clickModels: { pbm } });
    expect(value(e, 'clicks_per_search')?.candidate.estimate).toBeCloseTo(0.74, 12);
    expect(value(e, 'mrr')?.candidate.estimate).toBeCloseTo(0.586, 12);
  });

  it('dr: the click model plus the IPS estimate of its residual', () => {
    // DBN predictions of the logged lists: [a, b] → (0.4, 0.6·0.8·(1 − 0.2) = 0.384); [b, a] → (0.6, 0.224).
    // ρ̂_a = (0.6 − 0.4 + (−0.224/0.5)·2) / 4 = −0.174;  ρ̂_b = ((−0.384 + 0.616)/0.5 + 0.4 − 0.6) / 4 = 0.066.
    // Candidate [b, a]: (0.6 + 0.066, 0.224 + 0.5·(−0.174)) = (0.666, 0.137): clicks 0.803.
    // Baseline [a, b]: (0.4 − 0.174, 0.384 + 0.033) = (0.226, 0.417): 0.643; mean with [b, a]: 0.723.
    const e = evaluateCandidate({ ...base, estimator: 'dr', clickModels: { dbn } });
    expect(value(e, 'clicks_per_search')?.candidate.estimate).toBeCloseTo(0.803, 12);
    expect(value(e, 'clicks_per_search')?.baseline.estimate).toBeCloseTo(0.723, 12);
  });

  it('fits the click model itself when none is given', () => {
    const given = evaluateCandidate({
      ...base,
      estimator: 'dm-pbm',
      clickModels: { pbm: fitClickModel(searches, { algorithm: 'pbm', maxDepth: 2 }).toJSON() },
    });
    const own = evaluateCandidate({ ...base, estimator: 'dm-pbm' });
    expect(own.metrics).toEqual(given.metrics);
  });
});

describe('coverage', () => {
  it('counts a result never shown for the query as no evidence and as never clicked', () => {
    // [b, z]: z was never shown for q, so half the top-2 has evidence; its γ is 0: clicks = 0.75 + 0.
    const e = evaluateCandidate({ ...base, candidate: new Map([['q', ['b', 'z']]]), estimator: 'ips' });
    expect(e.coverage).toBe(0.5);
    expect(value(e, 'clicks_per_search')?.candidate.estimate).toBeCloseTo(0.75, 12);
    expect(value(e, 'clicks_per_search')?.coverage).toBe(0.5);
  });

  it('gives no estimate below minCoverage', () => {
    const e = evaluateCandidate({ ...base, candidate: new Map([['q', ['y', 'z', 'a']]]), estimator: 'snips', depth: 3, minCoverage: 0.5 });
    expect(e.coverage).toBeCloseTo(1 / 3, 12);
    expect(e.enoughCoverage).toBe(false);
    expect(e.metrics).toEqual([]);
    expect(e.observedBaseline.clicks_per_search).toBe(0.75);
  });

  it('evaluates only the queries the candidate ranks, weighted by how often each was searched', () => {
    const other = { ...search('t1', ['x'], ['x']), queryHash: 'other' };
    const e = evaluateCandidate({ ...base, searches: [...searches, other], estimator: 'ips' });
    expect([e.searches, e.queries]).toEqual([4, 1]);
  });
});

describe('bootstrap intervals', () => {
  it('are paired, seeded and contain the point estimate on a larger log', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ ...(searches[i % 4] as LoggedSearch), sessionId: `u${i}` }));
    const run = () => evaluateCandidate({ ...base, searches: many, estimator: 'snips', bootstrap: 100, seed: 3 });
    const e = run();
    expect(run()).toEqual(e);
    for (const m of e.metrics) {
      for (const x of [m.candidate, m.baseline, m.difference, m.relativeDifference]) {
        expect(x.interval[0]).toBeLessThanOrEqual(x.estimate + 1e-12);
        expect(x.interval[1]).toBeGreaterThanOrEqual(x.estimate - 1e-12);
        expect(x.interval[1]).toBeGreaterThan(x.interval[0]);
      }
    }
    expect(e.intervalMethod).toBe('Poisson bootstrap over sessions, 100 replicates, percentile');
  });
});
