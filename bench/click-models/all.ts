/**
 * Every algorithm on one simulated log (default 1,000,000 DBN sessions of 10 results),
 * encoded once, then held-out scores on a later 10% slice.
 *   npx tsx bench/click-models/all.ts [sessions]
 */
import { CLICK_MODEL_ALGORITHMS } from '../../src/click-models/types.js';
import { encodeSessions } from '../../src/click-models/sessions/encode.js';
import { evaluate, splitByTime } from '../../src/click-models/evaluation/evaluate.js';
import { fitClickModel } from '../../src/click-models/fit.js';
import { simulateClickLog } from '../../src/click-models/sessions/simulate.js';
import { relevanceCorrelation, trueDbnRelevance } from '../../test/support/click-model-truth.js';

const sessions = Number(process.argv[2] ?? 1_000_000);
const sim = simulateClickLog({ model: 'dbn', seed: 1, queries: 1000, docsPerQuery: 20, sessions });
const { train, heldOut } = splitByTime(sim.sessions, 0.1);
const started = process.hrtime.bigint();
const log = encodeSessions(train, 10);
const encodeSeconds = Number(process.hrtime.bigint() - started) / 1e9;

const header = [
  'algorithm',
  'train sessions',
  'iterations',
  'fit seconds',
  'sessions/s',
  'ρ vs true α·σ',
  'held-out LL',
  'perplexity',
  'peak RSS MB',
];
const rows: string[][] = [];
for (const algorithm of CLICK_MODEL_ALGORITHMS) {
  const start = process.hrtime.bigint();
  const model = fitClickModel(log, { algorithm });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const scores = evaluate(model, heldOut);
  rows.push([
    algorithm,
    log.sessionCount.toLocaleString('en-US'),
    String(model.summary.iterations),
    seconds.toFixed(2),
    Math.round(log.sessionCount / seconds).toLocaleString('en-US'),
    relevanceCorrelation(model, sim, trueDbnRelevance).rho.toFixed(4),
    (scores.logLikelihood ?? Number.NaN).toFixed(4),
    (scores.perplexity ?? Number.NaN).toFixed(4),
    (process.resourceUsage().maxRSS / 1024).toFixed(0),
  ]);
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
console.log(`encode: ${encodeSeconds.toFixed(2)} s for ${log.sessionCount.toLocaleString('en-US')} sessions`);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const r of rows) console.log(line(r));
