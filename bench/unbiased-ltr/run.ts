/**
 * npm run bench:unbiased-ltr [-- --quick] [-- --seeds 5] [-- --no-1m]
 *
 * The standard semi-synthetic protocol of unbiased learning to rank (Joachims et al. 2017; Ai et al.
 * 2018; Hu et al. 2019) on LightGBM's lambdarank sample: see bench/unbiased-ltr/README.md. Prints
 * the tables and writes them to bench/unbiased-ltr/last-run.txt.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { runCell, type CellResult, type CellSpec } from './cell.js';
import { allMethods, METHOD_ORDER } from './methods.js';
import { featureMaps } from './service.js';
import { DBN_GAMMA, SWAP_RATE, type Users } from './simulate.js';
import { methodTable, render } from './table.js';
import { ZIPF } from './world.js';
import { numberOption } from '../support/args.js';

const quick = process.argv.includes('--quick');
const seeds = numberOption('seeds', quick ? 2 : 5);
const with1m = !process.argv.includes('--no-1m') && !quick;

const USERS: Users[] = [
  { kind: 'pbm', eta: 0.5 },
  { kind: 'pbm', eta: 1 },
  { kind: 'pbm', eta: 2 },
  { kind: 'dbn', gamma: DBN_GAMMA },
];
const HEADLINE: Omit<CellSpec, 'seed'> = { users: { kind: 'pbm', eta: 2 }, logger: 'good', sessions: 100_000 };

function specs(): CellSpec[] {
  const out: CellSpec[] = [];
  const sizes = quick ? [10_000] : [10_000, 100_000];
  for (const sessions of sizes)
    for (const users of USERS)
      for (const logger of ['weak', 'good'] as const) {
        // Five seeds where the goals are judged (PBM at 100 000), one elsewhere.
        const n = sessions === 100_000 && users.kind === 'pbm' ? seeds : 1;
        for (let seed = 1; seed <= n; seed++) out.push({ users, logger, sessions, seed });
      }
  if (quick) for (let seed = 1; seed <= seeds; seed++) out.push({ ...HEADLINE, seed });
  if (with1m) out.push({ ...HEADLINE, sessions: 1_000_000, seed: 1 });
  return out;
}

const lines: string[] = [];
const say = (s = '') => {
  console.log(s);
  lines.push(s);
};

const started = performance.now();
const results: CellResult[] = [];
const grid = specs();
grid.forEach((spec, i) => {
  const t = performance.now();
  const r = runCell(spec, allMethods(), featureMaps);
  results.push(r);
  const brief = METHOD_ORDER.filter((m) => r.scores[m])
    .map((m) => `${m} ${r.scores[m]!.test.toFixed(3)}`)
    .join(', ');
  console.error(`[${i + 1}/${grid.length}] ${r.label} seed ${spec.seed} (${((performance.now() - t) / 1000).toFixed(0)} s): ${brief}`);
});

const methods = METHOD_ORDER.filter((m) => results.some((r) => r.scores[m]));
say(`# bench:unbiased-ltr — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores${quick ? ', --quick' : ''}`);
say();
say(`World: LightGBM lambdarank sample (201 queries, 3 005 documents, grades 0–4), queries split 60/20/20 train/validation/test per seed;`);
say(`Zipf(${ZIPF}) query popularity; top 10 shown, ${SWAP_RATE * 100} % of sessions swap one random adjacent pair (RandPair-style);`);
say(
  `clicks: PBM (1/k)^η × (ε− + (ε+−ε−)(2^y−1)/15), ε+ = 1, ε− = 0.1; DBN same attractiveness, satisfaction (2^y−1)/15, γ = ${DBN_GAMMA}.`,
);
say(`NDCG@10 on the test queries' true labels (mean ± sd over seeds where seeds > 1); tail = test queries with < 20 sessions in the log.`);
say();
say('## NDCG@10, test queries');
say(methodTable(results, methods, (s) => s.test));
say();
say('## NDCG@10, tail test queries (< 20 sessions)');
say(methodTable(results, methods, (s) => s.tail, true));
say();
say('## Training seconds (one run, this machine)');
say(methodTable(results, methods, (s) => s.seconds ?? Number.NaN).replace(/(\d\.\d{3})±\d\.\d{3}/g, '$1'));
say();
say('## Harvested propensities (AllPairs, point estimates) against the true PBM curve, seed 1');
const curves = results.filter((r) => r.spec.seed === 1 && r.spec.users.kind === 'pbm');
say(
  render(
    ['cell', ...Array.from({ length: 10 }, (_, k) => `p${k + 1}`)],
    curves.map((r) => [r.label, ...r.harvested.map((p) => p.toFixed(2))]),
  ),
);
say();
say(`Total ${((performance.now() - started) / 60000).toFixed(1)} min.`);
if (!quick) writeFileSync(new URL('./last-run.txt', import.meta.url), lines.join('\n') + '\n');
