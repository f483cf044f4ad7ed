/**
 * Tuning of the trainer's defaults on validation splits only: the training part of the bench's
 * split (seed 42) is split again by query (3 seeds, 20% validation); the bench's test queries
 * are never read. Prints mean validation NDCG@10 per setting.
 * Run: npm run bench:ranker-tune
 */
import { readFileSync } from 'node:fs';
import { parseLetor } from '../../src/ranker/data/letor.js';
import { ndcgAt } from '../../src/ranker/metrics/metrics.js';
import { predictRaw } from '../../src/ranker/model/model.js';
import { splitForValidation, train, type TrainParams } from '../../src/ranker/train.js';
import { printTable } from './common.js';
import { sampleSplit } from './data.js';

const { trainFile } = sampleSplit(42);
const data = parseLetor(readFileSync(trainFile, 'utf8'), { maxFeatureIndex: 300 });
// Round 2 (issue 15): bins, truncation level, lambda normalisation, leaf size and min child
// weight around the current defaults (minChildHessian 1 came out of round 1: 1e-3 / 0.1 / 1 ×
// minDataInLeaf 20 / 50 × lambda 1 / 10).
const grid: Partial<TrainParams>[] = [];
for (const maxBins of [255, 63])
  for (const truncationLevel of [30, 10])
    for (const normalizeLambdas of [true, false])
      for (const minDataInLeaf of [20, 10])
        for (const minChildHessian of [1, 0.1]) grid.push({ maxBins, truncationLevel, normalizeLambdas, minDataInLeaf, minChildHessian });
const rows: string[][] = [];
for (const g of grid) {
  const scores = [11, 12, 13].map((seed) => {
    const { train: tr, valid } = splitForValidation(data, 0.2, seed);
    const { model } = train(tr, { objective: 'lambdarank', ...g });
    return ndcgAt(valid.labels, predictRaw(model, valid.features, valid.numRows), valid.groups!, 10);
  });
  rows.push([JSON.stringify(g), (scores.reduce((a, b) => a + b, 0) / scores.length).toFixed(4), scores.map((s) => s.toFixed(4)).join(' ')]);
}
rows.sort((a, b) => Number(b[1]) - Number(a[1]));
printTable(['setting', 'mean valid NDCG@10', 'per split'], rows);
