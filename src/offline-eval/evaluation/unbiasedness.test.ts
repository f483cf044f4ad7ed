import { describe, expect, it } from 'vitest';
import { pbmTruth, simulatePbmLog } from '../simulation/simulate.js';
import { evaluateCandidate } from './evaluate.js';

describe('IPS is unbiased under PBM users with the true propensities', () => {
  it('its mean error over 40 seeds is within three standard errors of 0 (clicks_per_search)', () => {
    const errors: number[] = [];
    for (let seed = 1; seed <= 40; seed += 1) {
      // Ten documents per query shown in full: every candidate result has evidence.
      const log = simulatePbmLog({ seed, queries: 15, docsPerQuery: 10, searches: 600, rankers: 2 });
      // The candidate: the first ranker's order reversed, so it is not one the log served.
      const candidate = new Map([...log.rankings].map(([q, lists]) => [q, [...(lists[0] as string[])].reverse()]));
      const e = evaluateCandidate({
        searches: log.searches,
        candidate,
        propensities: log.examination,
        estimator: 'ips',
        metrics: ['clicks_per_search'],
        bootstrap: 0,
      });
      const truth = pbmTruth(log, candidate).clicks_per_search;
      errors.push((e.metrics[0]?.candidate.estimate as number) - truth);
    }
    const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
    const sd = Math.sqrt(errors.reduce((a, b) => a + (b - mean) ** 2, 0) / (errors.length - 1));
    const standardError = sd / Math.sqrt(errors.length);
    expect(standardError).toBeGreaterThan(0);
    expect(Math.abs(mean)).toBeLessThan(3 * standardError);
  });

  it('and orders a better candidate above a worse one (SNIPS, harvested-free, true propensities)', () => {
    const log = simulatePbmLog({ seed: 9, queries: 40, docsPerQuery: 10, searches: 8000, rankers: 2 });
    const byAttraction = (sign: number) =>
      new Map([...log.attractiveness].map(([q, docs]) => [q, [...docs].sort((x, y) => sign * (y[1] - x[1])).map(([d]) => d)] as const));
    const run = (candidate: Map<string, string[]>) =>
      evaluateCandidate({
        searches: log.searches,
        candidate,
        propensities: log.examination,
        estimator: 'snips',
        metrics: ['mrr'],
        bootstrap: 0,
      }).metrics[0]?.candidate.estimate as number;
    const good = byAttraction(1);
    const bad = byAttraction(-1);
    expect(run(good)).toBeGreaterThan(run(bad));
    expect(Math.abs(run(good) - pbmTruth(log, good).mrr)).toBeLessThan(0.02);
  });
});
