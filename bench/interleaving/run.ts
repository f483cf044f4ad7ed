/**
 * Sensitivity of team-draft interleaving against A/B tests on ctr and mrr, with known truth.
 *
 *   npm run bench:interleaving [-- --population dbn,mixed --pairs 24 --seed 7 --quick]
 *
 * 1. Rankers: LambdaMART models trained with our trainer on the training half of the LightGBM
 *    lambdarank sample, degraded by trees / visible features / label noise, plus the original
 *    and a random order. Truth: NDCG@10 on the held-out half by the graded labels.
 * 2. Pairs: `--pairs` of all ranker pairs, with NDCG gaps spread log-evenly from the largest to 0.005.
 * 3. Users (units with 1 + Poisson(1.5) searches over the held-out queries): see users.ts.
 * 4. Searches for 80 % power at α = 0.05 (two-sided), per method, solved from a pilot simulation:
 *    the per-unit effect and variance in each test's own normal approximation (A/B: Welch on the
 *    delta-method per-session variances of ctr and mrr, both arms counted; interleaving: the
 *    clustered score test, interleavingUnitsForPower). Solving is affordable and exact for the
 *    tests as run; searching over sizes by simulation would need tens of millions of A/B sessions
 *    per pair. The solved sizes are then checked by independent replicate experiments (within a
 *    per-pair budget): the power actually reached, and how often a significant result names the
 *    truly better ranker.
 */
import { labelIndex } from './experiments.js';
import { abPilots, measurePair, type PairMeasurement, type Settings } from './measure.js';
import { RANKER_SPECS, loadSplit, originalOrder, randomOrder, trainRanker, type BenchRanker } from './rankers.js';
import { report } from './report.js';
import { POPULATIONS } from './users.js';

const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const QUICK = process.argv.includes('--quick');
const SEED = Number(option('seed', '7'));
const PAIRS = Number(option('pairs', '24'));
const populations = option('population', 'dbn,mixed')
  .split(',')
  .map((name) => {
    const p = POPULATIONS[name];
    if (!p) throw new Error(`--population takes ${Object.keys(POPULATIONS).join(', ')} (comma-separated)`);
    return p;
  });
const settings: Settings = {
  seed: SEED,
  abPilotSessions: QUICK ? 100_000 : 400_000,
  ilPilotUnits: QUICK ? 4_000 : 20_000,
  ilPilotMaxUnits: QUICK ? 4_000 : 60_000,
  maxReplicates: QUICK ? 20 : 40,
  minReplicates: 10,
  ilReplicateBudget: QUICK ? 200_000 : 400_000,
  abReplicateBudget: QUICK ? 1_000_000 : 2_000_000,
};
const started = Date.now();
const log = (message: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${message}`);

const { trainSet, heldOut } = loadSplit(SEED);
const rankers: BenchRanker[] = RANKER_SPECS.map((spec, i) => trainRanker(spec, trainSet, heldOut, SEED * 1000 + i));
rankers.push(originalOrder(heldOut), randomOrder(heldOut, SEED));
log(`trained ${RANKER_SPECS.length} rankers`);
const labels = labelIndex(rankers[0]!);

const allPairs = rankers.flatMap((a, i) => rankers.slice(i + 1).map((b) => ({ a, b, gap: Math.abs(a.ndcg10 - b.ndcg10) })));
const maxGap = Math.max(...allPairs.map((p) => p.gap));
const chosen: typeof allPairs = [];
for (let i = 0; i < PAIRS; i += 1) {
  const target = Math.log(maxGap) + ((Math.log(0.005) - Math.log(maxGap)) * i) / (PAIRS - 1);
  const distance = (p: (typeof allPairs)[number]) => Math.abs(Math.log(p.gap) - target);
  chosen.push(allPairs.filter((p) => !chosen.includes(p)).reduce((x, y) => (distance(y) < distance(x) ? y : x)));
}

console.log(`# Interleaving sensitivity benchmark (seed ${SEED}${QUICK ? ', --quick' : ''})`);
console.log(`${rankers[0]!.queries.length} held-out queries; rankers by NDCG@10 on them:`);
console.log(
  [...rankers]
    .sort((x, y) => y.ndcg10 - x.ndcg10)
    .map((r) => `${r.name} ${r.ndcg10.toFixed(4)}`)
    .join(', '),
);
console.log('Columns: searches needed for 80 % power at α = 0.05 (A/B: both arms); "wrong way": the metric moves against NDCG;');
console.log(
  '"sig": significant/run among replicate experiments at that size; "right": significant results naming the truly better ranker.',
);
for (const population of populations) {
  const pilots = abPilots(rankers, population, settings);
  log(`${population.name}: A/B pilots done`);
  const rows: PairMeasurement[] = chosen.map((pair, index) => {
    const m = measurePair(pair, index, population, pilots, labels, settings);
    log(`pair ${index + 1}/${chosen.length}: ${m.better.name} > ${m.worse.name}`);
    return m;
  });
  console.log(`\n## Users: ${population.name}\n`);
  console.log(report(rows));
}
console.log(`\nRun time ${((Date.now() - started) / 1000).toFixed(0)} s (indicative: a shared, loaded 2-core machine).`);
