import { fileURLToPath } from 'node:url';
/**
 * Ours vs XGBoost rank:ndcg on the shared LETOR sample (LightGBM's lambdarank example).
 * Seeded 80/20 split by query, written to files so XGBoost trains on exactly the same rows.
 * Run: npx tsx bench/ranker/ltr.ts [--seed 42] [--repeat 3]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLetor } from '../../src/ranker/data/letor.js';
import { NDCG_CUTOFFS, ndcgAt, originalOrderScores } from '../../src/ranker/metrics/metrics.js';
import { predictRaw } from '../../src/ranker/model/model.js';
import { mulberry32, shuffleInPlace } from '../../src/random/index.js';
import { train, type TrainParams } from '../../src/ranker/train.js';
import { benchDir, printTable, runXgboost, type XgbRun } from './common.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SEED = arg('seed', 42);
const REPEAT = arg('repeat', 3);
const DATA = fileURLToPath(new URL('../../test/fixtures/ltr', import.meta.url));
const PARAMS: Partial<TrainParams> & { objective: 'lambdarank' } = {
  objective: 'lambdarank',
  numTrees: 100,
  learningRate: 0.1,
  numLeaves: 31,
};

// Split the raw lines by query so both engines read identical text.
const lines = readFileSync(join(DATA, 'rank.train'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');
const sizes = readFileSync(join(DATA, 'rank.train.query'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map(Number);
const queries: string[][] = [];
let at = 0;
sizes.forEach((n, q) => {
  queries.push(lines.slice(at, at + n).map((l) => l.replace(/^(\S+)/, `$1 qid:${q + 1}`)));
  at += n;
});
const order = shuffleInPlace(Array.from(queries.keys()), mulberry32(SEED));
const nTest = Math.round(queries.length * 0.2);
const testQ = order.slice(0, nTest).sort((a, b) => a - b);
const trainQ = order.slice(nTest).sort((a, b) => a - b);
const dir = benchDir('ltr');
const trainFile = join(dir, `train-${SEED}.letor`);
const testFile = join(dir, `test-${SEED}.letor`);
writeFileSync(trainFile, trainQ.flatMap((q) => queries[q]!).join('\n') + '\n');
writeFileSync(testFile, testQ.flatMap((q) => queries[q]!).join('\n') + '\n');

// Both engines see the same column count (features absent from a split would shift nothing,
// but the model's feature names must cover the test file).
const trainSet = parseLetor(readFileSync(trainFile, 'utf8'), { maxFeatureIndex: 300 });
const testSet = parseLetor(readFileSync(testFile, 'utf8'), { maxFeatureIndex: 300 });

// Interleave the runs and keep each engine's best time: the machine is shared, so the minimum
// is the least noisy estimate of what each engine needs.
let model = train(trainSet, PARAMS).model;
const oursTimes: number[] = [];
const xgbRuns: XgbRun[] = [];
const xgb1Runs: XgbRun[] = [];
const XGB = { rounds: 100, eta: 0.1, leaves: 31 };
for (let i = 0; i < REPEAT; i++) {
  const t0 = performance.now();
  model = train(trainSet, PARAMS).model;
  oursTimes.push((performance.now() - t0) / 1000);
  xgbRuns.push(runXgboost('rank:ndcg', trainFile, [testFile], XGB));
  xgb1Runs.push(runXgboost('rank:ndcg', trainFile, [testFile], { ...XGB, nthread: 1 }));
}
const ours = Math.min(...oursTimes);
const xgbSeconds = Math.min(...xgbRuns.map((r) => r.seconds));
const xgb1Seconds = Math.min(...xgb1Runs.map((r) => r.seconds));
const xgb = xgbRuns[0]!;
const xgb1 = xgb1Runs[0]!;

const ndcgs = (labels: Float32Array, groups: Int32Array, s: ArrayLike<number>) => NDCG_CUTOFFS.map((k) => ndcgAt(labels, s, groups, k));
const oursTest = ndcgs(testSet.labels, testSet.groups!, predictRaw(model, testSet.features, testSet.numRows));
const oursTrain = ndcgs(trainSet.labels, trainSet.groups!, predictRaw(model, trainSet.features, trainSet.numRows));
const xgbTest = ndcgs(testSet.labels, testSet.groups!, xgb.predictions[1]!);
const xgbTrain = ndcgs(trainSet.labels, trainSet.groups!, xgb.predictions[0]!);
const origTest = ndcgs(testSet.labels, testSet.groups!, originalOrderScores(testSet.numRows));

console.log(
  `LETOR sample: ${trainSet.numRows} train rows / ${trainQ.length} queries, ${testSet.numRows} held-out rows / ${testQ.length} queries (seed ${SEED})`,
);
console.log(
  `100 trees, learning rate 0.1, 31 leaves; XGBoost ${xgb.version} rank:ndcg hist lossguide max_depth 0; best of ${REPEAT} timings`,
);
console.log('NDCG: gain 2^l-1, all-zero queries count 1 (XGBoost ndcg@k / LightGBM convention), same metric code for both.\n');
printTable(
  ['', 'NDCG@1', 'NDCG@3', 'NDCG@5', 'NDCG@10', 'train s'],
  [
    ['ours (held-out)', ...oursTest, ours],
    ['XGBoost (held-out)', ...xgbTest, xgbSeconds],
    ['original order (held-out)', ...origTest, '-'],
    ['ours (training data)', ...oursTrain, '-'],
    ['XGBoost (training data)', ...xgbTrain, '-'],
    ['XGBoost nthread=1 (held-out)', ...ndcgs(testSet.labels, testSet.groups!, xgb1.predictions[1]!), xgb1Seconds],
  ],
);
const goals = [
  ['NDCG@10 ≥ XGBoost (held-out)', oursTest[3]! >= xgbTest[3]!],
  ['NDCG@1 > 0.5674 (held-out)', oursTest[0]! > 0.5674],
  ['NDCG@3 > 0.578 (held-out)', oursTest[1]! > 0.578],
  ['train time ≤ 2× XGBoost (default threads)', ours <= 2 * xgbSeconds],
] as const;
console.log('');
printTable(
  ['goal', 'met'],
  goals.map(([g, ok]) => [g, ok ? 'yes' : 'NO']),
);
console.log(
  `\ntime ratio ours/XGBoost: ${(ours / xgbSeconds).toFixed(2)} vs default nthread, ${(ours / xgb1Seconds).toFixed(2)} vs nthread=1 (ours is single-threaded)`,
);
