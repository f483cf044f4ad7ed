import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileModel, rowFromMap, scoreRow } from './forest.js';
import { lessOrEqualAsLessThan, ModelImportError } from './import-common.js';
import { importLightgbmModel } from './import-lightgbm.js';
import { toXgboostJson, parseXgboostJson } from './xgboost-json.js';

const DIR = fileURLToPath(new URL('../../../test/fixtures/imported-models', import.meta.url));
const text = readFileSync(`${DIR}/lightgbm-model.txt`, 'utf8');
const expected = JSON.parse(readFileSync(`${DIR}/lightgbm-expected.json`, 'utf8')) as {
  rows: { id: string; features: Record<string, number>; score: number }[];
  order: string[];
};

describe('importLightgbmModel', () => {
  const { model, summary } = importLightgbmModel(text);
  const forest = compileModel(model);
  const score = (f: Record<string, number>) => scoreRow(forest, rowFromMap(forest, f), 0);

  it('scores the hand-worked rows: x <= threshold left, default_left and missing types None / NaN', () => {
    expect(summary).toMatchObject({ format: 'lightgbm-text', trees: 3, sourceObjective: 'lambdarank' });
    expect(model.featureNames).toEqual(['bm25', 'freshness', 'clicks']);
    for (const r of expected.rows) expect(score(r.features), r.id).toBeCloseTo(r.score, 12);
    const order = [...expected.rows].sort((a, b) => score(b.features) - score(a.features)).map((r) => r.id);
    expect(order).toEqual(expected.order);
  });

  it('exports back as the XGBoost dump and scores the same', () => {
    const scorer = parseXgboostJson(JSON.stringify(toXgboostJson(model)), model.featureNames);
    for (const r of expected.rows) expect(scorer.score(r.features), r.id).toBeCloseTo(r.score, 12);
  });

  it('turns <= into < exactly for float32 values', () => {
    for (const t of [4.5, 0.25, 0.1, -0.1, 0, -0, 1e-35, 1e-30, -3.7, 123456.789]) {
      const cut = lessOrEqualAsLessThan(t);
      expect(Math.fround(cut), String(t)).toBe(cut);
      for (const v of [Math.fround(t), Math.fround(t) * (1 + 1e-7), Math.fround(t) * (1 - 1e-7), cut, 0]) {
        const f = Math.fround(v);
        expect(f < cut, `${f} vs ${t}`).toBe(f <= t);
      }
    }
  });

  it('refuses categorical splits, linear trees, multiclass, names the line', () => {
    const fail = (t: string, options = {}) => {
      try {
        importLightgbmModel(t, options);
      } catch (e) {
        expect(e).toBeInstanceOf(ModelImportError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(fail(text.replace('decision_type=2 10', 'decision_type=3 10'))).toMatch(
      /^line 18 \(tree 0, node 0\): decision_type 3 is a categorical split/,
    );
    expect(fail(text.replace('objective=lambdarank', 'objective=multiclass num_class:3'))).toMatch(/^line 7: objective "multiclass"/);
    expect(fail(text.replace('num_class=1', 'num_class=3'))).toMatch(/^line 3: num_class=3/);
    expect(fail(text.replace('is_linear=0', 'is_linear=1'))).toMatch(/is_linear=1/);
    expect(fail(text.replace('left_child=-1 -2', 'left_child=-1 -7'))).toMatch(/child -7 is not a node or leaf/);
    expect(fail(text.replace('leaf_value=0.01', 'leaf_value=0.01 x'))).toMatch(/^line \d+ \(tree 2\): leaf_value needs 1 numbers/);
    expect(fail('{"learner": {}}')).toMatch(/^line 1: expected "tree"/);
    expect(fail(text.replace('decision_type=8 0', 'decision_type=8 12'))).toMatch(/unknown missing type 3/);
    expect(() => importLightgbmModel(text, { featureNames: ['a'] })).toThrow(/has 1 names; the model has 3 features/);
  });

  it('missing type Zero (zero_as_missing): |x| ≤ 1e-35 and NaN take the default side, other values the threshold', () => {
    // One split on x, leaves −1 (left) and +1 (right); LightGBM's rule worked out per value.
    const oneSplit = (threshold: number, decisionType: number) =>
      importLightgbmModel(
        ['tree', 'num_class=1', 'max_feature_idx=0', 'objective=lambdarank', 'feature_names=x', '', 'Tree=0', 'num_leaves=2']
          .concat([`split_feature=0`, `threshold=${threshold}`, `decision_type=${decisionType}`, 'left_child=-1', 'right_child=-2'])
          .concat(['leaf_value=-1 1', ''])
          .join('\n'),
      ).model;
    const scoreOf = (m: ReturnType<typeof oneSplit>, x?: number) => {
      const f = compileModel(m);
      return scoreRow(f, rowFromMap(f, x === undefined ? {} : { x }), 0);
    };
    // decision_type 4: Zero, default right; threshold 2.
    const right = oneSplit(2, 4);
    const cases: [number | undefined, number][] = [
      [undefined, 1],
      [0, 1],
      [1e-36, 1],
      [-1e-36, 1],
      [1, -1],
      [2, -1],
      [-1, -1],
      [3, 1],
    ];
    for (const [x, want] of cases) expect(scoreOf(right, x), `x=${x}`).toBe(want);
    // decision_type 6: Zero, default left; threshold −2.
    const left = oneSplit(-2, 6);
    const cases2: [number | undefined, number][] = [
      [undefined, -1],
      [0, -1],
      [-3, -1],
      [-2, -1],
      [-1, 1],
      [5, 1],
    ];
    for (const [x, want] of cases2) expect(scoreOf(left, x), `x=${x}`).toBe(want);
    // The XGBoost export walks the shared children like a tree and scores the same.
    const exported = parseXgboostJson(JSON.stringify(toXgboostJson(right)), ['x']);
    for (const [x, want] of cases) expect(exported.score(x === undefined ? {} : { x }), `exported x=${x}`).toBe(want);
  });

  it('maps the model features to other names', () => {
    const renamed = importLightgbmModel(text, { featureNames: ['doc.bm25', 'doc.age', 'doc.clicks'] }).model;
    expect(renamed.featureNames).toEqual(['doc.bm25', 'doc.age', 'doc.clicks']);
    expect(renamed.trees).toEqual(model.trees);
  });
});
