/**
 * Offline evaluation against known truth: `npm run bench:offline-eval [-- options]`.
 *   --quick                 10 000 sessions, 50 bootstrap replicates, no 1 000 000 timing (also QUICK=1)
 *   --scenarios pbm:100000:0,dbn:100000:0.02,…  users:logged sessions:exploration share
 *   --bootstrap 100         --seed 1             --eta 1 --gamma 0.9
 *   --timing-bootstrap 200  --harvest-logs 0        skip the harvest-by-log table     --out last-run.txt (file beside this script)
 *   --estimators naive,ips,snips,dm-pbm,dm-dbn,dr,snips*            --timing-sessions 1000000
 *     (a trailing * = that estimator with the true examination curve instead of the harvested one; PBM only)
 * Every figure is scored against the exact online value computed from the user model (users.ts);
 * how the world is built: world.ts, logs.ts; the naive baseline: naive.ts. Output: tables, and the
 * whole run in bench/offline-eval/last-run.txt (last-run-quick.txt for --quick, or --out).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { numberOption, option } from '../support/args.js';
import type { EvaluationInput } from '../../src/offline-eval/index.js';
import { simulateLog, type LogArm } from './logs.js';
import { naiveEstimates } from './naive.js';
import { Report, fixed, thousands } from './report.js';
import { printCandidates, printHarvest, printScores, type EstimatorResult } from './tables.js';
import { describeUsers, examination, METRICS, policyValue, type Metric, type MetricValues, type UserModel } from './users.js';
import { buildRankers, loadWorld } from './world.js';
import { timingRun } from './timing.js';

const quick = process.argv.includes('--quick') || process.env['QUICK'] === '1';
// users:sessions:exploration share. The default grid keeps the run to the scenarios the issue asks
// about; any other grid can be passed (e.g. --scenarios dbn:100000:0.02).
const scenarios = option(
  'scenarios',
  quick ? 'pbm:10000:0,dbn:10000:0' : 'pbm:100000:0,pbm:100000:0.02,dbn:100000:0,pbm:10000:0,dbn:10000:0',
)
  .split(',')
  .filter((s) => s !== 'none')
  .map((s) => {
    const [kind, sessions, exploration] = s.split(':');
    return { kind: kind!, sessions: Number(sessions), exploration: Number(exploration ?? 0) };
  });
const sizes = scenarios.map((s) => s.sessions);
const bootstrap = numberOption('bootstrap', quick ? 50 : 100);
const seed = numberOption('seed', 1);
const eta = numberOption('eta', 1);
const gamma = numberOption('gamma', 0.9);
const estimators = option('estimators', 'naive,ips,snips,dm-pbm,dm-dbn,dr,snips*').split(',');
const harvestLogs = option('harvest-logs', '1') !== '0';
const outName = option('out', quick ? 'last-run-quick.txt' : 'last-run.txt');
const timingSessions = numberOption('timing-sessions', quick ? 0 : 1_000_000);
// The cost figure uses the library's default number of replicates, whatever the scoring runs use.
const timingBootstrap = numberOption('timing-bootstrap', 200);
const AB_SHARE = 0.5;

const report = new Report();
const started = Date.now();
const world = loadWorld();
const { production, treatment, candidates } = buildRankers(world);
const arms: LogArm[] = [
  { name: 'production', share: 1 - AB_SHARE, policy: production },
  { name: 'A/B treatment', share: AB_SHARE, policy: treatment },
];
const needLibrary = estimators.some((e) => e !== 'naive');
const lib = needLibrary ? await import('./library.js') : null;
const candidateMaps = lib ? candidates.map((c) => lib.rankingsOf(world, c.policy)) : [];

report.print(`# Offline evaluation against known truth (${new Date().toISOString()}, ${quick ? 'quick' : 'default'} mode)`);
report.print();
report.print(
  `World: LightGBM lambdarank sample, ${world.queries.length} queries, ${thousands(world.grade.length)} documents graded 0–4; ` +
    `attractiveness 0.1 + 0.9·(2^g − 1)/15; Zipf(1) query popularity (top query ${(100 * Math.max(...world.popularity)).toFixed(1)} % of searches). ` +
    `Logging: production (relevance + N(0, 1) noise) and an A/B treatment (another N(0, 1) draw), ${100 * AB_SHARE} % of sessions each, top 10 shown, ` +
    `one search per session; exploration = RandPair on that share of searches. ` +
    `${candidates.filter((c) => c.scope === 'logged').length} candidates rerank the documents the logging rankers show, ` +
    `${candidates.filter((c) => c.scope === 'all').length} more may promote documents never shown. ` +
    `Lifts are candidate − logging policy (absolute); intervals 95 %, ${bootstrap} bootstrap replicates.`,
);
report.print();

const headline: string[][] = [];
for (const { kind, sessions, exploration } of scenarios) {
  const users: UserModel = kind === 'pbm' ? { kind: 'pbm', eta } : { kind: 'dbn', gamma };
  const trueValues = candidates.map((c) => policyValue(world, [{ share: 1, policy: c.policy }], users));
  const title = `${describeUsers(users)}; ${thousands(sessions)} sessions; exploration ${100 * exploration} %`;
  report.print(`## ${title}`);
  report.print();
  const log = simulateLog(world, { sessions, users, arms, exploration, seed: seed + sessions + Math.round(exploration * 1000) });
  const base = policyValue(world, arms, users, exploration);
  report.print(
    `True logging-policy values: ${METRICS.map((m) => `${m} ${fixed(base[m], 4)}`).join(', ')}; explored searches ${thousands(log.explored)}.`,
  );
  report.print();
  const trueLifts = trueValues.map((v) => lift(v, base));
  const results: EstimatorResult[] = [];
  if (estimators.includes('naive')) {
    const t = Date.now();
    const predictions = naiveEstimates(
      world,
      log,
      candidates.map((c) => c.policy),
      { bootstrap, seed },
    );
    results.push({ name: 'naive', predictions, ms: Date.now() - t, coverage: [] });
  }
  if (lib) {
    const t = Date.now();
    const harvest = lib.harvest(log, bootstrap);
    const harvestMs = Date.now() - t;
    printHarvest(report, harvest, users, harvestMs);
    const t2 = Date.now();
    const models = lib.fitModels(log);
    report.print(`PBM and DBN click models fitted on the log in ${((Date.now() - t2) / 1000).toFixed(2)} s (once, shared by dm-* and dr).`);
    report.print();
    const propensities = harvest.positions.map((p) => p.estimate);
    // `ips*` / `snips*`: the same estimators handed the true examination curve (PBM only), which
    // separates the error of the harvested propensities from the estimator's own.
    const runs = estimators.flatMap((name) => {
      const base = name.replace(/\*$/, '');
      if (!lib.isEstimator(base)) return [];
      // As the service calls it: re-harvested from the log in every bootstrap replicate.
      if (!name.endsWith('*')) return [{ name, estimator: base, propensities: { harvest: { maxDepth: propensities.length } } }];
      if (users.kind !== 'pbm') return [];
      return [
        { name, estimator: base, propensities: propensities.map((_, k) => examination(users, k + 1)) as EvaluationInput['propensities'] },
      ];
    });
    for (const run of runs) {
      const t3 = Date.now();
      const out = candidateMaps.map((m) => lib.libraryEstimate(log, m, run.estimator, run.propensities, models, bootstrap));
      results.push({
        name: run.name,
        predictions: out.map((o) => o.prediction),
        ms: Date.now() - t3,
        coverage: out.map((o) => o.coverage),
      });
    }
  }
  const rows = printScores(report, results, candidates, trueValues, trueLifts);
  if (sessions === Math.max(...sizes)) printCandidates(report, candidates, results, trueValues, trueLifts);
  rows.forEach((r) => headline.push([kind.toUpperCase(), thousands(sessions), `${100 * exploration} %`, ...r]));
}

if (lib && harvestLogs && scenarios.some((s) => s.kind === 'pbm')) harvestByLogs({ kind: 'pbm', eta }, Math.max(...sizes));

report.print('## Summary');
report.print();
report.table(
  [
    'users',
    ' sessions',
    ' exploration',
    'estimator',
    ' MRR RMSE',
    ' MRR coverage',
    ' MRR τ',
    ' pairs ordered',
    ' min coverage (4 metrics)',
    ' min τ (4 metrics)',
  ],
  headline,
);

if (lib && timingSessions > 0)
  timingRun(report, lib, world, arms, candidateMaps[0]!, timingSessions, { kind: 'pbm', eta }, timingBootstrap);

report.print(`Total run time ${((Date.now() - started) / 1000).toFixed(0)} s.`);
const out = fileURLToPath(new URL(`./${outName}`, import.meta.url));
writeFileSync(out, report.lines.join('\n') + '\n');

function lift(v: MetricValues, base: MetricValues): MetricValues {
  return Object.fromEntries(METRICS.map((m) => [m, v[m] - base[m]])) as Record<Metric, number>;
}

/** Harvesting needs the same result at several positions: one ranker alone, with RandPair, and the A/B test. */
function harvestByLogs(users: { kind: 'pbm'; eta: number }, sessions: number): void {
  if (!lib) return;
  const alone: LogArm[] = [{ name: 'production', share: 1, policy: production }];
  const cases: [string, LogArm[], number][] = [
    ['production alone', alone, 0],
    ['production alone + 2 % RandPair', alone, 0.02],
    ['production + A/B treatment', arms, 0],
    ['production + A/B treatment + 2 % RandPair', arms, 0.02],
  ];
  const rows = cases.map(([label, logArms, exploration]) => {
    const log = simulateLog(world, { sessions, users, arms: logArms, exploration, seed: seed + 17 });
    const h = lib.harvest(log, bootstrap);
    const errors = h.positions.map((p) => Math.abs(p.estimate - examination(users, p.position)));
    const unsupported = h.positions.filter((p) => p.support === 0).length;
    const worst = Math.max(...errors.filter((e) => Number.isFinite(e)));
    return [label, thousands(h.harvestedPairs), String(unsupported), fixed(worst), worst <= 0.03 && unsupported === 0 ? 'met' : 'not met'];
  });
  report.print(`## Harvested propensities by what the log holds (${describeUsers(users)}, ${thousands(sessions)} sessions)`);
  report.print();
  report.table(['log', ' harvested pairs', ' positions without support', ' largest error', 'within ±0.03'], rows);
}
