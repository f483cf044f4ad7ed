/**
 * Scale: synthetic LETOR file, 100,000 rows × 50 features, 5,000 queries (seeded), training
 * time and peak RSS for ours and XGBoost on the same file. Ours runs in a child process so
 * its peak RSS is parse + train only.
 * Run: npx tsx bench/ranker/scale.ts [--rows 100000] [--queries 5000] [--features 50]
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLetorStream } from '../../src/ranker/data/letor.js';
import { ndcgAt } from '../../src/ranker/metrics/metrics.js';
import { mulberry32 } from '../../src/random/index.js';
import { train } from '../../src/ranker/train.js';
import { numberOption } from '../support/args.js';
import { benchDir, peakRssMb, printTable, runXgboost } from './common.js';

const ROWS = numberOption('rows', 100_000);
const QUERIES = numberOption('queries', 5_000);
const FEATURES = numberOption('features', 50);
const SEED = numberOption('seed', 7);

/**
 * Graded relevance from a hidden nonlinear function of 10 features plus noise; the last fifth
 * of the features are sparse (absent 70% of the time) so the missing-value path is exercised.
 */
function generate(path: string): void {
  const rng = mulberry32(SEED);
  const perQuery = ROWS / QUERIES;
  const out: string[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const qShift = rng() - 0.5;
    for (let d = 0; d < perQuery; d++) {
      const x = Array.from({ length: FEATURES }, () => rng());
      const latent =
        2 * x[0]! + x[1]! * x[2]! * 3 - x[3]! + (x[4]! > 0.7 ? 1 : 0) + Math.sin(6 * x[5]!) + x[6]! * x[7]! + qShift + (rng() - 0.5) * 1.2;
      const label = Math.max(0, Math.min(4, Math.floor(latent * 1.3)));
      const parts = [String(label), `qid:${q + 1}`];
      x.forEach((v, j) => {
        if (j >= FEATURES * 0.8 && rng() < 0.7) return;
        parts.push(`${j + 1}:${v.toFixed(4)}`);
      });
      out.push(parts.join(' '));
    }
  }
  writeFileSync(path, out.join('\n') + '\n');
}

const PARAMS = { objective: 'lambdarank' as const, numTrees: 100, learningRate: 0.1, numLeaves: 31 };

async function child(path: string): Promise<void> {
  const t0 = performance.now();
  const data = await parseLetorStream(createReadStream(path, { encoding: 'utf8' }));
  const parseSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const { model } = train(data, PARAMS);
  const trainSeconds = (performance.now() - t1) / 1000;
  const rss = peakRssMb();
  const { predictRaw } = await import('../../src/ranker/model/model.js');
  const ndcg10 = ndcgAt(data.labels, predictRaw(model, data.features, data.numRows), data.groups!, 10);
  process.stdout.write(JSON.stringify({ parseSeconds, trainSeconds, peakRssMb: rss, ndcg10, rows: data.numRows }));
}

async function main(): Promise<void> {
  const file = join(benchDir('scale'), `synthetic-${ROWS}x${FEATURES}-${QUERIES}q-seed${SEED}.letor`);
  if (!existsSync(file)) generate(file);
  const self = fileURLToPath(import.meta.url);
  const ours = JSON.parse(
    execFileSync(process.execPath, [...process.execArgv, self, '--child', file], { encoding: 'utf8', maxBuffer: 1 << 26 }),
  ) as {
    parseSeconds: number;
    trainSeconds: number;
    peakRssMb: number;
    ndcg10: number;
  };
  const xgb = runXgboost('rank:ndcg', file, [], { rounds: 100, eta: 0.1, leaves: 31 });
  const xgb1 = runXgboost('rank:ndcg', file, [], { rounds: 100, eta: 0.1, leaves: 31, nthread: 1 });
  const { parseLetor } = await import('../../src/ranker/data/letor.js');
  const { readFileSync } = await import('node:fs');
  const data = parseLetor(readFileSync(file, 'utf8'));
  const xgbNdcg = (r: typeof xgb) => ndcgAt(data.labels, r.predictions[0]!, data.groups!, 10);
  console.log(`synthetic LETOR: ${ROWS} rows, ${FEATURES} features (last ${FEATURES * 0.2} sparse), ${QUERIES} queries, seed ${SEED}`);
  console.log(`100 trees, learning rate 0.1, 31 leaves; file ${file}\n`);
  printTable(
    ['engine', 'train s', 'peak RSS MB', 'NDCG@10 (train)', 'note'],
    [
      [
        'ours (1 thread)',
        ours.trainSeconds,
        ours.peakRssMb,
        ours.ndcg10,
        `parse ${ours.parseSeconds.toFixed(2)} s streamed; RSS = whole Node process`,
      ],
      ['XGBoost default nthread', xgb.seconds, xgb.peakRssMb, xgbNdcg(xgb), `RSS after loading the file: ${xgb.loadedRssMb.toFixed(0)} MB`],
      ['XGBoost nthread=1', xgb1.seconds, xgb1.peakRssMb, xgbNdcg(xgb1), ''],
    ],
  );
  console.log(
    `\nratio ours/XGBoost: time ${(ours.trainSeconds / xgb.seconds).toFixed(2)} (default nthread), ${(ours.trainSeconds / xgb1.seconds).toFixed(2)} (nthread=1); peak RSS ${(ours.peakRssMb / xgb.peakRssMb).toFixed(2)}`,
  );
}

const ci = process.argv.indexOf('--child');
if (ci > 0) await child(process.argv[ci + 1]!);
else await main();
