import { describe, expect, it } from 'vitest';
import { DEFAULT_ITERATIONS } from './fit-config.js';
import { fitClickModel } from './fit.js';
import { toJudgments } from './judgments/judgments.js';
import { simulateClickLog, type GeneratingModel } from './sessions/simulate.js';
import type { ClickModelAlgorithm } from './types.js';

// Each EM model meets its own stopping rule within the default budget, and running much
// longer (twice the cap, a tolerance 10 000 times tighter) changes no judgment grade.
const cases: { algorithm: ClickModelAlgorithm; generator: GeneratingModel; continuation?: number }[] = [
  { algorithm: 'pbm', generator: 'pbm' },
  { algorithm: 'ubm', generator: 'cascade' },
  { algorithm: 'dbn', generator: 'dbn' },
  { algorithm: 'dbn', generator: 'dbn', continuation: 0.6 },
];

describe.each(cases)('$algorithm EM on a seeded $generator simulation (λ $continuation)', ({ algorithm, generator, continuation }) => {
  const sim = simulateClickLog({
    model: generator,
    seed: 15,
    queries: 60,
    docsPerQuery: 15,
    sessions: 30_000,
    ...(continuation === undefined ? {} : { continuation }),
  });
  const model = fitClickModel(sim.sessions, { algorithm });

  it('converges within the default iteration budget', () => {
    expect(model.summary.converged).toBe(true);
    expect(model.summary.iterations).toBeGreaterThan(1);
    expect(model.summary.iterations).toBeLessThan(DEFAULT_ITERATIONS);
  });

  it('gives the same grades when run twice as long with a tighter tolerance', () => {
    const longer = fitClickModel(sim.sessions, { algorithm, iterations: 2 * DEFAULT_ITERATIONS, tolerance: 1e-10 });
    expect(longer.summary.iterations).toBeGreaterThan(model.summary.iterations);
    const grades = (m: typeof model) => toJudgments(m).judgments.map((j) => `${j.queryHash}/${j.resultId}:${j.grade}`);
    const before = grades(model);
    expect(before).toHaveLength(900);
    expect(grades(longer)).toEqual(before);
  });
});

describe('closed-form models', () => {
  it.each(['cascade', 'sdbn'] as const)('%s reports converged without iterating', (algorithm) => {
    const sim = simulateClickLog({ model: 'cascade', seed: 15, queries: 10, docsPerQuery: 10, sessions: 2000 });
    const model = fitClickModel(sim.sessions, { algorithm });
    expect(model.summary).toMatchObject({ iterations: 0, converged: true });
  });
});
