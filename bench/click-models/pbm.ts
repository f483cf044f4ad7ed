/**
 * PBM EM on 1,000,000 simulated sessions of 10 results.
 *   npx tsx bench/click-models/pbm.ts [sessions] [queries]
 * Prints one row per phase: simulation (not part of the fit), encoding strings to
 * integer ids, EM with the default tolerance, EM forced to run all 50 iterations.
 * Peak RSS is the process high-water mark after the phase (it includes the simulated
 * sessions held in memory).
 */
import { encodeSessions } from '../../src/click-models/sessions/encode.js';
import { fitClickModel } from '../../src/click-models/fit.js';
import { simulateClickLog } from '../../src/click-models/sessions/simulate.js';
import { relevanceCorrelation, trueAttractiveness } from '../../test/support/click-model-truth.js';

const sessions = Number(process.argv[2] ?? 1_000_000);
// 1000 queries × 20 docs = 20k pairs by default; pass e.g. 50000 for a 1M-pair long tail.
const queries = Number(process.argv[3] ?? 1000);
const rows: string[][] = [];
const peakRssMb = (): string => (process.resourceUsage().maxRSS / 1024).toFixed(0);

function time<T>(run: () => T): { value: T; seconds: number } {
  const start = process.hrtime.bigint();
  const value = run();
  return { value, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

function row(phase: string, iterations: number | string, seconds: number, note = ''): void {
  rows.push([
    phase,
    sessions.toLocaleString('en-US'),
    String(iterations),
    seconds.toFixed(2),
    Math.round(sessions / seconds).toLocaleString('en-US'),
    peakRssMb(),
    note,
  ]);
}

const sim = time(() => simulateClickLog({ model: 'pbm', seed: 1, queries, docsPerQuery: 20, sessions }));
row('simulate (not timed in fit)', '-', sim.seconds);

const encoded = time(() => encodeSessions(sim.value.sessions, 10));
row('encode', '-', encoded.seconds, `${encoded.value.pairCount.toLocaleString('en-US')} pairs`);

const fitDefault = time(() => fitClickModel(encoded.value, { algorithm: 'pbm' }));
const model = fitDefault.value;
const examError = Math.max(...model.examination.map((g, r) => Math.abs(g - (sim.value.examination[r] as number))));
const { rho, pairs } = relevanceCorrelation(model, sim.value, trueAttractiveness);
const rhoNote = pairs > 0 ? rho.toFixed(4) : 'n/a (no pair seen 50 times)';
row(
  'fit pbm (tolerance 1e-6)',
  model.summary.iterations,
  fitDefault.seconds,
  `converged=${model.summary.converged} max|Δγ|=${examError.toFixed(4)} ρ=${rhoNote}`,
);

const fitFull = time(() => fitClickModel(encoded.value, { algorithm: 'pbm', iterations: 50, tolerance: 0 }));
row('fit pbm (50 iterations forced)', fitFull.value.summary.iterations, fitFull.seconds);
row('encode + fit (50 iterations)', 50, encoded.seconds + fitFull.seconds);

const fromSessions = time(() => fitClickModel(sim.value.sessions, { algorithm: 'pbm', iterations: 50, tolerance: 0 }));
row('fitClickModel(sessions) end to end', 50, fromSessions.seconds);

const header = ['phase', 'sessions', 'iterations', 'seconds', 'sessions/s', 'peak RSS MB', 'note'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const r of rows) console.log(line(r));
console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
