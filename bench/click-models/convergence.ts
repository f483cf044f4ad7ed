/**
 * Iterations each EM click model needs to meet its own stopping rule (max parameter change
 * < tolerance) on the standard seeded simulations, with a large cap, and whether the default
 * budget is enough.
 *   npm run bench:click-models-convergence -- [cap]
 */
import { DEFAULT_ITERATIONS } from '../../src/click-models/fit-config.js';
import { fitClickModel } from '../../src/click-models/fit.js';
import { simulateClickLog, type GeneratingModel } from '../../src/click-models/sessions/simulate.js';

const cap = Number(process.argv[2] ?? 3000);
const settings: { model: GeneratingModel; zipf: number }[] = [
  { model: 'dbn', zipf: 0 },
  { model: 'pbm', zipf: 0 },
  { model: 'cascade', zipf: 0 },
  { model: 'dbn', zipf: 1 },
];
console.log(`default iteration budget: ${DEFAULT_ITERATIONS}; cap for this run: ${cap}`);
console.log('| simulation | algorithm | iterations to converge | converged | fit seconds |');
console.log('| --- | --- | --- | --- | --- |');
for (const { model: generator, zipf } of settings) {
  const sim = simulateClickLog({ model: generator, seed: 7, queries: 100, docsPerQuery: 20, sessions: 200_000, zipfExponent: zipf });
  for (const algorithm of ['pbm', 'ubm', 'dbn'] as const) {
    const start = process.hrtime.bigint();
    const model = fitClickModel(sim.sessions, { algorithm, iterations: cap });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const name = `${generator}${zipf ? ' zipf 1' : ''}`;
    console.log(`| ${name} | ${algorithm} | ${model.summary.iterations} | ${model.summary.converged} | ${seconds.toFixed(2)} |`);
  }
}
