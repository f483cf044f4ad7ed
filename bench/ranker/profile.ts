/**
 * Profiling harness: single-threaded training on the scale set (or the sample), timing the
 * phases, under `node --cpu-prof`: `npm run bench:ranker-profile -- [--data scale|sample] [--trees 100]`.
 */
import { readFileSync } from 'node:fs';
import { parseLetor } from '../../src/ranker/data/letor.js';
import { train } from '../../src/ranker/train.js';
import { option } from '../support/args.js';
import { sampleSplit, scaleFile } from './data.js';

const DATA = option('data', 'scale');
const TREES = Number(option('trees', '100'));
const REPEAT = Number(option('repeat', '1'));
const data =
  DATA === 'scale'
    ? parseLetor(readFileSync(scaleFile(100_000, 5_000, 50, 7), 'utf8'))
    : parseLetor(readFileSync(sampleSplit(42).trainFile, 'utf8'), { maxFeatureIndex: 300 });
for (let i = 0; i < REPEAT; i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const { model } = train(data, { objective: 'lambdarank', numTrees: TREES, learningRate: 0.1, numLeaves: 31 });
  const c = process.cpuUsage(c0);
  const leaves = model.trees.reduce((a, t) => a + t.leafValue.length, 0);
  console.log(
    `${DATA}: ${TREES} trees, wall ${((performance.now() - t0) / 1000).toFixed(2)} s, cpu ${((c.user + c.system) / 1e6).toFixed(2)} s, leaves ${leaves}, checksum ${model.trees
      .at(-1)!
      .leafValue.reduce((a, b) => a + b, 0)
      .toFixed(12)}`,
  );
}
