import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { parseXgboostJson } from '../../src/ranker/index.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { type TestApp, useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { syntheticLetor } from './support/synthetic-letor.js';

const URL = '/api/nous/learn/models';
const letor = syntheticLetor({ queries: 80, docsPerQuery: 20, features: 8, seed: 11 });
const upload = (t: TestApp, id: string, payload: string | Readable, type = 'text/plain') =>
  request(t.app, { method: 'POST', url: `${URL}/${id}/dataset`, payload, headers: { 'content-type': type } });

describeOnEveryDatabase('ranker from an uploaded LETOR file', (kind) => {
  const t = useTestApp(kind);

  it('registers a dataset ranker that waits for its upload (train is a 409 until then)', async () => {
    const config = {
      trainingData: 'dataset',
      numTrees: 60,
      learningRate: 0.1,
      numLeaves: 15,
      minDataInLeaf: 5,
      earlyStoppingRounds: 10,
      validationFraction: 0.2,
      seed: 7,
      // Feature-parallel histograms in two threads through the service's training run.
      threads: 2,
    };
    const res = await postJson(t.app, URL, { modelId: 'ltr', name: 'ltr', type: 'ranker', config });
    expect(res.statusCode).toBe(201);
    expect(await t.container.learning.services.trainingService.runUntilIdle()).toBe(0);
    expectError(await postJson(t.app, `${URL}/ltr/train`, {}), 409, 'CONFLICT');
    expectError(await postJson(t.app, `${URL}/ltr/rank`, { results: [{ resultId: 'a' }] }), 409, 'CONFLICT');
  });

  it('refuses a malformed line with its number, a JSON body, and uploads to unknown or non-ranker models', async () => {
    const bad = upload(t, 'ltr', '1 qid:1 1:0.5\n0 qid:1 1:0.2\n2 qid:2 1:x\n');
    expectError(await bad, 400, 'VALIDATION_ERROR', '/line/3');
    expectError(await upload(t, 'ltr', '1 1:0.5\n'), 400, 'VALIDATION_ERROR', '/line/1');
    expectError(await postJson(t.app, `${URL}/ltr/dataset`, { rows: [] }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await upload(t, 'nope', letor), 404, 'NOT_FOUND');
    await postJson(t.app, URL, { modelId: 'cm', name: 'cm', type: 'click_model' });
    expectError(await upload(t, 'cm', letor), 409, 'CONFLICT');
  });

  it('answers 413 PAYLOAD_TOO_LARGE beyond 50 MiB, by declared length and while streaming', async () => {
    const big = `${'0 qid:1 1:0.5\n'.repeat(4 * 1024 * 1024)}`;
    expectError(await upload(t, 'ltr', big), 413, 'PAYLOAD_TOO_LARGE');
    const chunk = Buffer.from('0 qid:1 1:0.5\n'.repeat(74_899));
    let sent = 0;
    const stream = new Readable({
      read() {
        sent += 1;
        this.push(sent <= 60 ? chunk : null);
      },
    });
    expectError(await upload(t, 'ltr', stream), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('uploads the file (201, counts, training queued) and trains it: held-out NDCG above the original and random orders', async () => {
    const res = await upload(t, 'ltr', letor);
    expect(res.statusCode, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      modelId: 'ltr',
      format: 'letor',
      rows: 1600,
      queries: 80,
      features: 8,
      bytes: Buffer.byteLength(letor),
    });
    expect(res.body.data.training).toMatchObject({ status: 'queued', reason: 'dataset' });
    await t.container.learning.services.trainingService.runUntilIdle();
    const model = (await getJson(t.app, `${URL}/ltr`)).body.data;
    expect(model.status, model.error).toBe('ready');
    const m = model.metrics;
    expect(m.training).toEqual({ data: 'dataset' });
    expect(m.ndcg['10']).toBeGreaterThan(m.baseline.random.ndcg['10'] + 0.1);
    expect(m.ndcg['10']).toBeGreaterThan(m.baseline.original.ndcg['10'] + 0.1);
    for (const k of ['1', '3', '5', '10']) expect(m.ndcg[k]).toBeGreaterThan(0);
    expect(m.map).toBeGreaterThan(0);
    expect(m.mrr).toBeGreaterThan(0);
    expect(m.heldOutQueries).toBe(16);
    expect(m.featureImportance[0].feature).toBe('1');
    expect(m.trees).toBeGreaterThan(0);
    expect(m.trees).toBeLessThanOrEqual(60);
    expect(m.counts).toMatchObject({ rows: 1600, queries: 80, heldOutRows: 320 });
  });

  it('reranks by features named by their index, explains each score, and exports an XGBoost dump that scores identically', async () => {
    const results = Array.from({ length: 30 }, (_, i) => ({
      resultId: `d${i}`,
      position: i + 1,
      features: Object.fromEntries(Array.from({ length: 8 }, (_, j) => [String(j + 1), ((i * 37 + j * 11) % 100) / 100])),
    }));
    const ranked = await postJson(t.app, `${URL}/ltr/rank?explain=true`, { results });
    expect(ranked.statusCode).toBe(200);
    const out = ranked.body.data.results as {
      resultId: string;
      score: number;
      rank: number;
      originalPosition: number;
      explanation: { bias: number; contributions: Record<string, number> };
    }[];
    expect(out).toHaveLength(30);
    expect(out.map((r) => r.rank)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    for (let i = 1; i < out.length; i += 1) expect(out[i - 1]!.score).toBeGreaterThanOrEqual(out[i]!.score);
    for (const r of out) {
      const sum = r.explanation.bias + Object.values(r.explanation.contributions).reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(r.score, 9);
    }
    const dump = await request(t.app, { method: 'GET', url: `${URL}/ltr/export?format=xgboost-json` });
    expect(dump.statusCode).toBe(200);
    expect(dump.headers['content-type']).toMatch(/^application\/json/);
    const scorer = parseXgboostJson(dump.body);
    for (const r of out) {
      const sent = results.find((x) => x.resultId === r.resultId)!;
      expect(scorer.score(sent.features)).toBeCloseTo(r.score, 6);
    }
    const plugin = await request(t.app, { method: 'GET', url: `${URL}/ltr/export?format=ltr-plugin` });
    expect(plugin.body.model.model.type).toBe('model/xgboost+json');
    expectError(await getJson(t.app, `${URL}/ltr/export?format=onnx`), 400, 'VALIDATION_ERROR', '/format');
    expectError(await getJson(t.app, `${URL}/ltr/judgments`), 409, 'CONFLICT');
  });

  it('refuses rank bodies that break the schema', async () => {
    expectError(await postJson(t.app, `${URL}/ltr/rank`, { results: [] }), 400, 'VALIDATION_ERROR', '/results');
    expectError(
      await postJson(t.app, `${URL}/ltr/rank`, { results: [{ resultId: 'a', features: { '1': 'high' } }] }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await postJson(t.app, `${URL}/ltr/rank`, { results: [{ resultId: 'a', score: 1 }] }),
      400,
      'VALIDATION_ERROR',
      '/results/0/score',
    );
  });
});
