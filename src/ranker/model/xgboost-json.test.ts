import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileModel, scoreBatch } from './forest.js';
import { attachQueryIds, parseLetor } from '../data/letor.js';
import { predictRaw } from './model.js';
import { train } from '../train.js';
import { parseXgboostJson, toLtrPluginModel, toXgboostJson, type XgbNode, type XgbSplitNode } from './xgboost-json.js';

const DATA_DIR = fileURLToPath(new URL('../../../test/fixtures/ltr', import.meta.url));
const data = parseLetor(
  attachQueryIds(readFileSync(`${DATA_DIR}/rank.train`, 'utf8'), readFileSync(`${DATA_DIR}/rank.train.query`, 'utf8')),
);

function rowMap(r: number, prefix = ''): Record<string, number> {
  const m: Record<string, number> = {};
  for (let j = 0; j < data.numFeatures; j++) {
    const v = data.features[r * data.numFeatures + j]!;
    if (v === v) m[prefix + data.featureNames[j]!] = v;
  }
  return m;
}

describe('XGBoost JSON dump export', () => {
  const { model } = train(data, { objective: 'lambdarank', numTrees: 40, baggingFraction: 0.8, featureFraction: 0.8, seed: 7 });
  const native = predictRaw(model, data.features, data.numRows);

  it('exports, parses back and scores every row like the native model (1e-6)', () => {
    const dump = JSON.parse(JSON.stringify(toXgboostJson(model))) as XgbNode[];
    expect(dump).toHaveLength(model.trees.length);
    const scorer = parseXgboostJson(dump);
    let worst = 0;
    for (let r = 0; r < data.numRows; r++) worst = Math.max(worst, Math.abs(scorer.score(rowMap(r)) - native[r]!));
    expect(worst).toBeLessThan(1e-6);
  });

  it('has the plugin shape: names in split, yes/no/missing ids matching children, float32 thresholds', () => {
    const root = toXgboostJson(model)[0] as XgbSplitNode;
    expect(Object.keys(root).sort()).toEqual(['children', 'depth', 'missing', 'no', 'nodeid', 'split', 'split_condition', 'yes']);
    expect(model.featureNames).toContain(root.split);
    expect(root.children.map((c) => c.nodeid)).toEqual([root.yes, root.no]);
    expect([root.yes, root.no]).toContain(root.missing);
    expect(Math.fround(root.split_condition)).toBe(root.split_condition);
    const body = toLtrPluginModel(model, 'searchloop_v1');
    expect(body.model.model.type).toBe('model/xgboost+json');
    expect(JSON.parse(body.model.model.definition)).toEqual(toXgboostJson(model));
  });

  it('folds the base score into the first tree, since the plugin ignores base_score', () => {
    const biased = { ...model, baseScore: 0.25 };
    const scorer = parseXgboostJson(toXgboostJson(biased));
    expect(scorer.score(rowMap(3))).toBeCloseTo(native[3]! + 0.25, 9);
    const empty = parseXgboostJson(toXgboostJson({ ...model, trees: [], baseScore: -1.5 }));
    expect(empty.score({})).toBe(-1.5);
  });

  it('the flattened scorer matches the tree-walking one', () => {
    const flat = scoreBatch(compileModel(model), data.features);
    for (let r = 0; r < data.numRows; r++) expect(flat[r]).toBe(native[r]);
  });

  it('rejects malformed dumps', () => {
    expect(() => parseXgboostJson('{}')).toThrow(/array of trees/);
    const bad = [
      {
        nodeid: 0,
        depth: 0,
        split: 'a',
        split_condition: 1,
        yes: 1,
        no: 2,
        missing: 1,
        children: [
          { nodeid: 2, leaf: 1 },
          { nodeid: 1, leaf: 0 },
        ],
      },
    ];
    expect(() => parseXgboostJson(bad)).toThrow(/children do not match/);
  });
});

describe('scoring a dump written by XGBoost itself (fixture from generate.py)', () => {
  it('matches xgboost predict(output_margin) minus its base_score', () => {
    const fx = JSON.parse(readFileSync(new URL('../../../test/fixtures/ranker/xgb-dump.json', import.meta.url), 'utf8')) as {
      rows: number;
      baseScore: number;
      dump: XgbNode[];
      margins: number[];
    };
    const scorer = parseXgboostJson(fx.dump);
    for (let r = 0; r < fx.rows; r++) expect(scorer.score(rowMap(r, 'f')) + fx.baseScore).toBeCloseTo(fx.margins[r]!, 5);
  });
});
