import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileModel, rowFromMap, scoreRow } from './forest.js';
import { ModelImportError } from './import-common.js';
import { importXgboostModel } from './import-xgboost.js';
import { explain, featureImportance } from './model.js';
import { parseXgboostJson, toXgboostJson } from './xgboost-json.js';

const DIR = fileURLToPath(new URL('../../../test/fixtures/imported-models', import.meta.url));
const modelText = readFileSync(`${DIR}/xgb-model.json`, 'utf8');
const heldout = JSON.parse(readFileSync(`${DIR}/xgb-heldout.json`, 'utf8')) as {
  baseScore: number;
  featureNames: string[];
  rows: { features: Record<string, number> }[];
  margins: number[];
};

// XGBoost sums float32 leaves in float32; we sum the same float32 values in float64. Over 40
// trees of leaves below 1 the float32 rounding is a few 1e-7, so 1e-5 leaves room and still
// catches any row sent down a wrong branch (the smallest leaf here is ~1e-3).
const TOLERANCE = 1e-5;

function scores(model: ReturnType<typeof importXgboostModel>['model'], rename: (name: string) => string = (n) => n) {
  const forest = compileModel(model);
  return heldout.rows.map((r) => {
    const mapped = Object.fromEntries(Object.entries(r.features).map(([k, v]) => [rename(k), v]));
    return scoreRow(forest, rowFromMap(forest, mapped), 0);
  });
}

const maxDiff = (a: number[], b: number[]) => Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));

describe('importXgboostModel (save_model JSON)', () => {
  const { model, summary } = importXgboostModel(modelText);

  it("scores the held-out rows as XGBoost 1.7.4's predict(output_margin=True) does", () => {
    expect(summary).toMatchObject({ format: 'xgboost-json', trees: 40, sourceObjective: 'rank:ndcg' });
    expect(model.featureNames).toEqual(heldout.featureNames);
    expect(model.baseScore).toBe(heldout.baseScore);
    const ours = scores(model);
    expect(ours).toHaveLength(762);
    expect(maxDiff(ours, heldout.margins)).toBeLessThanOrEqual(TOLERANCE);
    // The rows do exercise missing values (default directions).
    expect(heldout.rows.filter((r) => Object.keys(r.features).length < heldout.featureNames.length).length).toBeGreaterThan(100);
  });

  it('maps feature i to featureNames[i] when given', () => {
    const names = heldout.featureNames.map((n) => `doc.${n}`);
    const renamed = importXgboostModel(modelText, { featureNames: names }).model;
    expect(renamed.featureNames).toEqual(names);
    expect(
      maxDiff(
        scores(renamed, (n) => `doc.${n}`),
        heldout.margins,
      ),
    ).toBeLessThanOrEqual(TOLERANCE);
  });

  it('keeps gains and covers, so importance and explanations work', () => {
    expect(featureImportance(model)[0]!.totalGain).toBeGreaterThan(0);
    const row = rowFromMap(compileModel(model), heldout.rows[0]!.features);
    const e = explain(model, row);
    const sum = e.bias + Object.values(e.contributions).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(heldout.margins[0]!, 5);
  });

  it('exports back as the XGBoost dump, which scores the same', () => {
    const dump = toXgboostJson(model);
    const scorer = parseXgboostJson(JSON.stringify(dump), model.featureNames);
    const again = heldout.rows.map((r) => scorer.score(r.features));
    expect(maxDiff(again, heldout.margins)).toBeLessThanOrEqual(TOLERANCE);
  });

  it('refuses what it cannot score, naming the field and the tree', () => {
    const raw = JSON.parse(modelText) as { learner: Record<string, any> };
    const variant = (edit: (l: Record<string, any>) => void) => {
      const copy = structuredClone(raw);
      edit(copy.learner);
      return JSON.stringify(copy);
    };
    const error = (text: string, options = {}) => {
      try {
        importXgboostModel(text, options);
      } catch (e) {
        expect(e).toBeInstanceOf(ModelImportError);
        return { field: (e as ModelImportError).field, message: (e as Error).message };
      }
      throw new Error('no error');
    };
    expect(error('{"learner": ').message).toMatch(/^is not JSON/);
    expect(error(variant((l) => (l.objective.name = 'multi:softprob'))).message).toMatch(/learner\.objective\.name "multi:softprob"/);
    expect(error(variant((l) => (l.gradient_booster.name = 'dart'))).message).toMatch(/gradient_booster\.name is "dart"/);
    expect(error(variant((l) => (l.gradient_booster.model.trees[3].split_type[0] = 1))).message).toMatch(
      /^tree 3, node 0: split_type is categorical/,
    );
    expect(error(variant((l) => l.gradient_booster.model.trees[5].left_children.pop())).message).toMatch(
      /^tree 5: left_children|^tree 5: right_children/,
    );
    expect(error(modelText, { featureNames: ['a', 'b'] })).toEqual({
      field: 'featureNames',
      message: expect.stringMatching(/has 2 names; the model has 40 features/),
    });
  });

  it('applies logit(base_score) for binary:logistic, as XGBoost does', () => {
    const raw = JSON.parse(modelText) as { learner: Record<string, any> };
    raw.learner.objective = { name: 'binary:logistic' };
    raw.learner.learner_model_param.base_score = '2E-1';
    expect(importXgboostModel(JSON.stringify(raw)).model.baseScore).toBeCloseTo(Math.log(0.2 / 0.8), 12);
    // XGBoost 2.1 writes base_score as a one-element vector.
    raw.learner.learner_model_param.base_score = '[2E-1]';
    expect(importXgboostModel(JSON.stringify(raw)).model.baseScore).toBeCloseTo(Math.log(0.2 / 0.8), 12);
  });
});

describe('importXgboostModel (get_dump JSON list)', () => {
  const dumpText = readFileSync(`${DIR}/xgb-dump.json`, 'utf8');

  it('scores like XGBoost less its base_score, which the dump does not keep', () => {
    const { model, summary } = importXgboostModel(dumpText);
    expect(summary).toMatchObject({ format: 'xgboost-dump', trees: 40 });
    expect(model.baseScore).toBe(0);
    const shifted = heldout.margins.map((m) => m - heldout.baseScore);
    const forest = compileModel(model);
    const ours = heldout.rows.map((r) => scoreRow(forest, rowFromMap(forest, r.features), 0));
    expect(maxDiff(ours, shifted)).toBeLessThanOrEqual(TOLERANCE);
  });

  it('names a split that featureNames leaves out', () => {
    expect(() => importXgboostModel(dumpText, { featureNames: ['c91'] })).toThrow(/featureNames does not list|has 1 names/);
  });
});
