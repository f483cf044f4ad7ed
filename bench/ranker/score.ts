import { fileURLToPath } from 'node:url';
/**
 * Serving latency: score 100 results with a 100-tree, 31-leaf model.
 * Paths: the forest as generated code (the service path, compileScorer), the flattened forest on a
 * row-major Float32Array (the array walk it replaced), the tree-walking
 * predictRaw, and the parsed XGBoost dump scoring feature maps (name → value objects).
 * Run: npx tsx bench/ranker/score.ts [--iterations 20000]
 */
import { readFileSync } from 'node:fs';
import { compileModel, scoreBatch } from '../../src/ranker/model/forest.js';
import { compileScorer } from '../../src/ranker/model/forest-codegen.js';
import { attachQueryIds, parseLetor } from '../../src/ranker/data/letor.js';
import { explain, predictRaw } from '../../src/ranker/model/model.js';
import { train } from '../../src/ranker/train.js';
import { treeDepth } from '../../src/ranker/trees/tree.js';
import { parseXgboostJson, toXgboostJson } from '../../src/ranker/model/xgboost-json.js';
import { printTable } from './common.js';

const i = process.argv.indexOf('--iterations');
const ITER = i > 0 ? Number(process.argv[i + 1]) : 20_000;
const DATA = fileURLToPath(new URL('../../test/fixtures/ltr', import.meta.url));
const data = parseLetor(attachQueryIds(readFileSync(`${DATA}/rank.train`, 'utf8'), readFileSync(`${DATA}/rank.train.query`, 'utf8')));
const { model } = train(data, { objective: 'lambdarank', numTrees: 100, numLeaves: 31, learningRate: 0.1 });
const F = data.numFeatures;
const N = 100;

// 100 results = 100 rows of the real data (sparse, with missing values), rotated per call so
// the branch predictor cannot memorise one batch.
const batches = Array.from({ length: 16 }, (_, b) => {
  const start = (b * 173) % (data.numRows - N);
  return data.features.slice(start * F, (start + N) * F);
});
const maps = batches.map((batch) =>
  Array.from({ length: N }, (_, r) => {
    const m: Record<string, number> = {};
    for (let j = 0; j < F; j++) {
      const v = batch[r * F + j]!;
      if (v === v) m[data.featureNames[j]!] = v;
    }
    return m;
  }),
);

function percentiles(fn: (k: number) => number, iterations: number): number[] {
  const times = new Float64Array(iterations);
  let sink = 0;
  for (let k = 0; k < 200; k++) sink += fn(k); // warm-up (JIT)
  for (let k = 0; k < iterations; k++) {
    const t0 = process.hrtime.bigint();
    sink += fn(k);
    times[k] = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  if (sink === 0.123456) console.log(sink);
  times.sort();
  const at = (p: number) => times[Math.min(iterations - 1, Math.floor(p * iterations))]!;
  return [at(0.5), at(0.95), at(0.99), at(1 - 1 / iterations)];
}

const forest = compileModel(model);
const out = new Float64Array(N);
const scorer = compileScorer(forest);
const generated = (batch: Float32Array) => {
  for (let r = 0; r < N; r++) out[r] = scorer(batch, r * F);
  return out;
};
const dump = parseXgboostJson(toXgboostJson(model));
const rows = [
  ['flattened forest, Float32Array rows', ...percentiles((k) => scoreBatch(forest, batches[k % 16]!, out)[0]!, ITER)],
  ['generated code (compileScorer), Float32Array rows', ...percentiles((k) => generated(batches[k % 16]!)[0]!, ITER)],
  ['tree walk (predictRaw)', ...percentiles((k) => predictRaw(model, batches[k % 16]!, N)[0]!, ITER)],
  ['parsed XGBoost dump, feature maps', ...percentiles((k) => maps[k % 16]!.reduce((s, m) => s + dump.score(m), 0), Math.min(ITER, 5_000))],
  [
    'explain() one row (path contributions)',
    ...percentiles((k) => explain(model, batches[k % 16]!.subarray(0, F)).score, Math.min(ITER, 5_000)),
  ],
];
const depths = model.trees.map(treeDepth);
console.log(
  `model: ${model.trees.length} trees, ${model.trees.reduce((s, t) => s + t.leafValue.length, 0)} leaves, depth ≤ ${Math.max(...depths)}, ${F} features; batch = ${N} results`,
);
console.log(`${ITER} timed calls per path (fewer for the map and explain paths), Node ${process.version}\n`);
printTable(
  ['path (100 results)', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
  rows.map((r) => r.map((c) => (typeof c === 'number' ? Number(c.toFixed(4)) : c))),
);
