import { describe, expect, it } from 'vitest';
import { describeEvaluation } from './describe.js';
import type { CandidateEvaluation, MetricEvaluation } from './types.js';

const metric = (name: MetricEvaluation['metric'], relative: number, low: number, high: number): MetricEvaluation => ({
  metric: name,
  candidate: { estimate: 0.5, interval: [0.4, 0.6] },
  baseline: { estimate: 0.48, interval: [0.4, 0.6] },
  difference: { estimate: 0.02, interval: [0.01, 0.03] },
  relativeDifference: { estimate: relative, interval: [low, high] },
  effectiveSampleSize: 100,
  coverage: 0.93,
});

const evaluation = (over: Partial<CandidateEvaluation>): CandidateEvaluation => ({
  estimator: 'snips',
  searches: 1000,
  queries: 10,
  sessions: 900,
  coverage: 0.93,
  enoughCoverage: true,
  metrics: [metric('mrr', 0.041, 0.02, 0.063), metric('ctr@10', -0.012, -0.03, 0.004)],
  observedBaseline: {},
  interleaving: { wins: 1, losses: 0, ties: 0, shareWon: 1 },
  intervalMethod: 'Poisson bootstrap over sessions, 200 replicates, percentile',
  depth: 10,
  minCoverage: 0.5,
  ...over,
});

describe('describeEvaluation', () => {
  it('says the primary metric’s predicted lift and the coverage', () => {
    expect(describeEvaluation(evaluation({}))).toBe(
      "predicted MRR +4.1 % [2.0 %, 6.3 %]; 93 % of the candidate's top-10 has logged evidence",
    );
    expect(describeEvaluation(evaluation({}), 'ctr@10')).toBe(
      "predicted CTR@10 -1.2 % [-3.0 %, 0.4 %]; 93 % of the candidate's top-10 has logged evidence",
    );
  });

  it('says there is no estimate and why', () => {
    expect(describeEvaluation(evaluation({ enoughCoverage: false, metrics: [], coverage: 0.31 }))).toBe(
      "no estimate: only 31 % of the candidate's top-10 has logged evidence, below the 50 % needed to say anything",
    );
    expect(describeEvaluation(evaluation({ enoughCoverage: false, metrics: [], coverage: 0, searches: 0 }))).toBe(
      "no estimate: the window holds no logged searches of the candidate's queries",
    );
  });
});
