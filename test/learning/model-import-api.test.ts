import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parseXgboostJson } from '../../src/ranker/index.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const MODELS = '/api/nous/learn/models';
const DIR = fileURLToPath(new URL('../fixtures/imported-models', import.meta.url));
const xgbModel = readFileSync(`${DIR}/xgb-model.json`, 'utf8');
const lgbModel = readFileSync(`${DIR}/lightgbm-model.txt`, 'utf8');
const heldout = JSON.parse(readFileSync(`${DIR}/xgb-heldout.json`, 'utf8')) as {
  featureNames: string[];
  rows: { query: number; label: number; features: Record<string, number> }[];
  margins: number[];
};
const lgbExpected = JSON.parse(readFileSync(`${DIR}/lightgbm-expected.json`, 'utf8')) as {
  rows: { id: string; features: Record<string, number>; score: number }[];
  order: string[];
};
// XGBoost sums float32 leaves in float32, we in float64: a few 1e-7 apart here (README).
const TOLERANCE = 1e-5;

// The held-out rows of one query as a rank request, and the order XGBoost's own scores give them.
const firstQuery = heldout.rows.map((r, i) => ({ ...r, margin: heldout.margins[i]!, resultId: `doc-${i}` })).filter((r) => r.query === 152);
const results = firstQuery.map((r) => ({ resultId: r.resultId, features: r.features }));
const xgbOrder = [...firstQuery].sort((a, b) => b.margin - a.margin).map((r) => r.resultId);
const importBody = (body: Record<string, unknown>) => ({ format: 'xgboost-json', model: xgbModel, ...body });
const ids = (res: { body: { data: { results: { resultId: string }[] } } }) => res.body.data.results.map((r) => r.resultId);

describeOnEveryDatabase('importing a ranker version trained elsewhere', (kind) => {
  const t = useTestApp(kind);

  it('imports XGBoost’s JSON model, serves rank and an alias in XGBoost’s own order, and exports it back', async () => {
    expect(firstQuery.length).toBeGreaterThan(10);
    expect(new Set(firstQuery.map((r) => r.margin)).size).toBe(firstQuery.length);
    await postJson(t.app, MODELS, { modelId: 'xgb', name: 'xgb', type: 'ranker', config: { trainingData: 'dataset' } });
    const res = await postJson(t.app, `${MODELS}/xgb/versions/import`, importBody({ activate: true, note: 'notebook run 12' }));
    expect(res.statusCode, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      modelId: 'xgb',
      version: 1,
      active: true,
      outcome: 'activated',
      source: 'import',
      imported: { format: 'xgboost-json', trees: 40, features: 40, objective: 'rank:ndcg', note: 'notebook run 12' },
      counts: { trees: 40, features: 40 },
      window: null,
      trainingSeconds: 0,
    });
    expect(res.body.data.message).toMatch(/no held-out metrics: trained elsewhere/);
    expect(res.body.data.metrics).not.toHaveProperty('ndcg');
    const model = (await getJson(t.app, `${MODELS}/xgb`)).body.data;
    expect(model).toMatchObject({ status: 'ready', activeVersion: 1, lastTraining: { outcome: 'activated', version: 1 } });

    const ranked = await postJson(t.app, `${MODELS}/xgb/rank`, { results });
    expect(ranked.statusCode, JSON.stringify(ranked.body)).toBe(200);
    expect(ids(ranked)).toEqual(xgbOrder);
    for (const r of ranked.body.data.results as { resultId: string; score: number }[]) {
      expect(Math.abs(r.score - firstQuery.find((q) => q.resultId === r.resultId)!.margin)).toBeLessThanOrEqual(TOLERANCE);
    }

    const alias = await request(t.app, {
      method: 'PUT',
      url: '/api/nous/learn/aliases/production',
      payload: { modelId: 'xgb', reason: 'imported ranker' },
      headers: { 'content-type': 'application/json' },
    });
    expect(alias.statusCode, JSON.stringify(alias.body)).toBe(200);
    const served = await postJson(t.app, '/api/nous/rank', { unitId: 'u1', queryId: 'q1', results });
    expect(served.statusCode, JSON.stringify(served.body)).toBe(200);
    expect(served.body.data.served).toEqual({ source: 'alias', alias: 'production', modelId: 'xgb', version: 1 });
    expect(ids(served)).toEqual(xgbOrder);

    const exported = await request(t.app, { method: 'GET', url: `${MODELS}/xgb/export?format=xgboost-json` });
    expect(exported.statusCode).toBe(200);
    const scorer = parseXgboostJson(exported.body, heldout.featureNames);
    const diffs = heldout.rows.map((r, i) => Math.abs(scorer.score(r.features) - heldout.margins[i]!));
    expect(Math.max(...diffs)).toBeLessThanOrEqual(TOLERANCE);
  });

  it('serves the imported version as a model-backed A/B variant', async () => {
    const created = await postJson(t.app, '/api/nous/ab-testing/experiments', {
      name: 'imported vs original',
      configuration: { variants: [{ id: 'original' }, { id: 'imported', model: { modelId: 'xgb', version: 1 } }] },
    });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    const experimentId = created.body.data.experimentId as string;
    expect((await postJson(t.app, `/api/nous/ab-testing/experiments/${experimentId}/start`, {})).statusCode).toBe(200);
    const served = [];
    for (let u = 0; u < 12; u++) served.push(await postJson(t.app, '/api/nous/rank', { unitId: `unit-${u}`, queryId: `q-${u}`, results }));
    const byImported = served.filter((r) => r.body.data.served.variantId === 'imported');
    expect(byImported.length).toBeGreaterThan(0);
    for (const r of byImported) {
      expect(r.body.data.served).toEqual({ source: 'experiment', experimentId, variantId: 'imported', modelId: 'xgb', version: 1 });
      expect(ids(r)).toEqual(xgbOrder);
    }
    expect((await postJson(t.app, `/api/nous/ab-testing/experiments/${experimentId}/stop`, {})).statusCode).toBe(200);
  });

  it('imports a LightGBM text model under other feature names, inactive first, then active', async () => {
    await postJson(t.app, MODELS, { modelId: 'lgb', name: 'lgb', type: 'ranker', config: { trainingData: 'dataset' } });
    const names = ['doc.bm25', 'doc.freshness', 'doc.clicks'];
    const body = { format: 'lightgbm-text', model: lgbModel, featureNames: names };
    const first = await postJson(t.app, `${MODELS}/lgb/versions/import`, body);
    expect(first.statusCode, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({
      version: 1,
      active: false,
      outcome: 'imported',
      imported: {
        format: 'lightgbm-text',
        trees: 3,
        features: 3,
        objective: 'lambdarank',
        sourceFeatureNames: ['bm25', 'freshness', 'clicks'],
      },
    });
    expect(first.body.data.message).toMatch(/not activated \(activate: false\)/);
    const rows = lgbExpected.rows.map((r) => ({
      resultId: r.id,
      features: Object.fromEntries(Object.entries(r.features).map(([k, v]) => [`doc.${k}`, v])),
    }));
    expectError(await postJson(t.app, `${MODELS}/lgb/rank`, { results: rows }), 409, 'CONFLICT');

    const second = await postJson(t.app, `${MODELS}/lgb/versions/import`, { ...body, activate: true });
    expect(second.body.data).toMatchObject({ version: 2, active: true });
    const ranked = await postJson(t.app, `${MODELS}/lgb/rank`, { results: rows });
    expect(ids(ranked)).toEqual(lgbExpected.order);
    for (const r of ranked.body.data.results as { resultId: string; score: number }[]) {
      expect(r.score).toBeCloseTo(lgbExpected.rows.find((e) => e.id === r.resultId)!.score, 12);
    }
    const versions = (await getJson(t.app, `${MODELS}/lgb/versions`)).body.data.items;
    expect(versions.map((v: { version: number; active: boolean; source: string }) => [v.version, v.active, v.source])).toEqual([
      [2, true, 'import'],
      [1, false, 'import'],
    ]);
  });

  it('answers 400s naming the field, 404 for an unknown model and 409 for a model that is not a ranker', async () => {
    await postJson(t.app, MODELS, { modelId: 'bad', name: 'bad', type: 'ranker', config: { trainingData: 'dataset' } });
    const post = (body: unknown, id = 'bad') => postJson(t.app, `${MODELS}/${id}/versions/import`, body);
    expectError(await post({ format: 'onnx', model: xgbModel }), 400, 'VALIDATION_ERROR', '/format');
    expectError(await post({ format: 'xgboost-json' }), 400, 'VALIDATION_ERROR', '/model');
    expectError(await post(importBody({ colour: 'red' })), 400, 'VALIDATION_ERROR');
    const notJson = await post({ format: 'xgboost-json', model: '{"learner": ' });
    expectError(notJson, 400, 'VALIDATION_ERROR', '/model');
    expect(notJson.body.error.message).toMatch(/^\/model: is not JSON/);
    const raw = JSON.parse(xgbModel) as { learner: { gradient_booster: { model: { trees: { split_type: number[] }[] } } } };
    raw.learner.gradient_booster.model.trees[7]!.split_type[0] = 1;
    const categorical = await post({ format: 'xgboost-json', model: JSON.stringify(raw) });
    expectError(categorical, 400, 'VALIDATION_ERROR', '/model');
    expect(categorical.body.error.message).toMatch(/tree 7, node 0: split_type is categorical/);
    const lgbBad = await post({ format: 'lightgbm-text', model: lgbModel.replace('decision_type=2 10', 'decision_type=3 10') });
    expect(lgbBad.body.error.message).toMatch(/^\/model: line 18 \(tree 0, node 0\): decision_type 3 is a categorical split/);
    expectError(await post(importBody({ featureNames: ['a', 'b'] })), 400, 'VALIDATION_ERROR', '/featureNames');
    expectError(await post({ format: 'lightgbm-text', model: xgbModel }), 400, 'VALIDATION_ERROR', '/model');
    expect((await getJson(t.app, `${MODELS}/bad/versions`)).body.data.items).toEqual([]);
    // Above the app's 2 MiB default body limit, below the route's 32 MiB.
    const padded = await post({ format: 'xgboost-json', model: `${xgbModel}${' '.repeat(3 * 1024 * 1024)}` });
    expect(padded.statusCode, JSON.stringify(padded.body).slice(0, 300)).toBe(201);
    expectError(await post({ format: 'xgboost-json', model: ' '.repeat(33 * 1024 * 1024) }), 413, 'PAYLOAD_TOO_LARGE');

    expectError(await post(importBody({}), 'nope'), 404, 'NOT_FOUND');
    await postJson(t.app, MODELS, { modelId: 'cm', name: 'cm', type: 'click_model' });
    expectError(await post(importBody({}), 'cm'), 409, 'CONFLICT');
  });

  it('needs an admin key: a read key gets 403', async () => {
    const auth = t.container.auth.services.apiKeys;
    const read = (await auth.create('import-read', 'read')).key;
    const admin = (await auth.create('import-admin', 'admin')).key;
    const post = (key: string) => postJson(t.app, `${MODELS}/xgb/versions/import`, importBody({}), { authorization: `Bearer ${key}` });
    expectError(await post(read), 403, 'FORBIDDEN');
    const ok = await post(admin);
    expect(ok.statusCode, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data).toMatchObject({ version: 2, active: false });
  });
});
