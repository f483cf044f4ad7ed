import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Dataset } from './data/dataset.js';
import { attachQueryIds, parseLetor } from './data/letor.js';
import { auc, compareToBaselines, ndcgAt } from './metrics/metrics.js';
import { deserializeModel, explain, featureImportance, predictRaw, serializeModel, toProbability } from './model/model.js';
import { mulberry32 } from '../random/index.js';
import { splitForValidation, train } from './train.js';

const DATA_DIR = fileURLToPath(new URL('../../test/fixtures/ltr', import.meta.url));
const ltr = (): Dataset =>
  parseLetor(attachQueryIds(readFileSync(`${DATA_DIR}/rank.train`, 'utf8'), readFileSync(`${DATA_DIR}/rank.train.query`, 'utf8')));

/** Two informative features, one noise, some NaN: separable up to label noise. */
function synthetic(n: number, seed: number): Dataset {
  const rng = mulberry32(seed);
  const F = 3;
  const features = new Float32Array(n * F);
  const labels = new Float32Array(n);
  for (let r = 0; r < n; r++) {
    const a = rng() * 2 - 1;
    const b = rng() * 2 - 1;
    features[r * F] = rng() < 0.05 ? Number.NaN : a;
    features[r * F + 1] = b;
    features[r * F + 2] = rng();
    labels[r] = a + 0.5 * b + (rng() - 0.5) * 0.3 > 0 ? 1 : 0;
  }
  return { numRows: n, numFeatures: F, features, labels, featureNames: ['a', 'b', 'noise'] };
}

describe('binary log-loss', () => {
  it('reaches AUC > 0.9 on held-out separable data and starts at the base-rate log-odds', () => {
    const tr = synthetic(3000, 1);
    const te = synthetic(1000, 2);
    const { model } = train(tr, { objective: 'binary', numTrees: 50, seed: 3 });
    const rate = tr.labels.reduce((a, b) => a + b, 0) / tr.numRows;
    expect(model.baseScore).toBeCloseTo(Math.log(rate / (1 - rate)), 12);
    const p = toProbability(predictRaw(model, te.features, te.numRows));
    expect(auc(te.labels, p)).toBeGreaterThan(0.9);
    const imp = featureImportance(model);
    expect(imp[0]!.feature).toBe('a');
    expect(imp.at(-1)!.feature).toBe('noise');
  });

  it('early-stops on a validation split and keeps the best iteration', () => {
    const tr = synthetic(2000, 5);
    const res = train(tr, {
      objective: 'binary',
      numTrees: 400,
      learningRate: 0.3,
      earlyStoppingRounds: 10,
      validationFraction: 0.25,
      seed: 2,
    });
    expect(res.validRows).toBe(500);
    expect(res.model.trees.length).toBe(res.model.bestIteration);
    expect(res.history.length).toBeLessThan(400);
    expect(res.history.length - res.model.bestIteration).toBe(10);
    const best = Math.min(...res.history.map((h) => h.valid!));
    expect(res.history[res.model.bestIteration - 1]!.valid).toBe(best);
  });

  it('is deterministic for a seed with bagging and feature sampling', () => {
    const tr = synthetic(1000, 9);
    const params = { objective: 'binary' as const, numTrees: 10, baggingFraction: 0.7, featureFraction: 0.67, seed: 11 };
    const a = serializeModel(train(tr, params).model);
    expect(serializeModel(train(tr, params).model)).toBe(a);
    expect(serializeModel(train(tr, { ...params, seed: 12 }).model)).not.toBe(a);
  });
});

describe('LambdaMART on the shared LETOR sample', () => {
  const data = ltr();

  it('beats the original order on held-out queries (NDCG@10, fixed seed)', () => {
    const { train: tr, valid: te } = splitForValidation(data, 0.2, 42);
    const { model } = train(tr, { objective: 'lambdarank', numTrees: 60, seed: 1 });
    const s = predictRaw(model, te.features, te.numRows);
    const cmp = compareToBaselines(te.labels, s, te.groups!, 1);
    expect(cmp.model.ndcg[10]).toBeGreaterThan(cmp.original.ndcg[10] + 0.05);
    expect(cmp.model.ndcg[10]).toBeGreaterThan(cmp.random.ndcg[10]);
    expect(cmp.model.map).toBeGreaterThan(cmp.original.map);
  });

  it('early-stops on NDCG@10 over a query split, round-trips JSON and explains scores', () => {
    const res = train(data, { objective: 'lambdarank', numTrees: 200, earlyStoppingRounds: 15, validationFraction: 0.2, seed: 4 });
    expect(res.metric).toBe('ndcg@10');
    expect(res.validRows + res.trainRows).toBe(data.numRows);
    expect(res.model.trees.length).toBe(res.model.bestIteration);
    const m2 = deserializeModel(serializeModel(res.model));
    const a = predictRaw(res.model, data.features, data.numRows);
    const b = predictRaw(m2, data.features, data.numRows);
    expect(Array.from(b)).toEqual(Array.from(a));
    expect(ndcgAt(data.labels, a, data.groups!, 10)).toBeGreaterThan(0.7);
    for (const r of [0, 17, 999]) {
      const row = data.features.subarray(r * data.numFeatures, (r + 1) * data.numFeatures);
      const e = explain(res.model, row);
      const sum = Object.values(e.contributions).reduce((x, y) => x + y, e.bias);
      expect(e.score).toBeCloseTo(a[r]!, 9);
      expect(sum).toBeCloseTo(e.score, 9);
    }
  });
});
