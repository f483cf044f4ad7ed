import { expect, it } from 'vitest';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const URL = '/api/nous/learn/models';

describeOnEveryDatabase('learning API errors', (kind) => {
  const t = useTestApp(kind);

  it.each([
    ['click_model', { algorithm: 'xgb' }, '/config/algorithm'],
    ['click_model', { maxDepth: 0 }, '/config/maxDepth'],
    ['click_model', { retrainEvery: 'daily' }, '/config/retrainEvery'],
    ['click_model', { window: 30 }, '/config/window'],
    ['click_model', { heldOutFraction: 0.9 }, '/config/heldOutFraction'],
    ['click_model', { numTrees: 10 }, '/config/numTrees'],
    ['ranker', { numTrees: 0 }, '/config/numTrees'],
    ['ranker', { learningRate: 'fast' }, '/config/learningRate'],
    ['ranker', { numLeaves: 1.5 }, '/config/numLeaves'],
    ['ranker', { baggingFraction: 0 }, '/config/baggingFraction'],
    ['ranker', { featureFraction: 2 }, '/config/featureFraction'],
    ['ranker', { minDataInLeaf: -1 }, '/config/minDataInLeaf'],
    ['ranker', { earlyStoppingRounds: 'ten' }, '/config/earlyStoppingRounds'],
    ['ranker', { validationFraction: 0.7 }, '/config/validationFraction'],
    ['ranker', { seed: 1.2 }, '/config/seed'],
    ['ranker', { threads: -1 }, '/config/threads'],
    ['engagement_predictor', { threads: 1.5 }, '/config/threads'],
    ['ranker', { trainingData: 'csv' }, '/config/trainingData'],
    ['ranker', { trainingData: 'clicks', debiasing: 'dr' }, '/config/debiasing'],
    ['ranker', { debiasing: 'ips' }, '/config/debiasing'],
    ['ranker', { trainingData: 'dataset', propensities: [1, 0.5] }, '/config/propensities'],
    ['ranker', { trainingData: 'clicks', debiasing: 'none', propensityClip: 0.2 }, '/config/propensityClip'],
    ['ranker', { trainingData: 'clicks', debiasing: 'ips', propensities: [0.9, 0.5] }, '/config/propensities'],
    ['ranker', { trainingData: 'clicks', debiasing: 'ips', propensities: [1, 0] }, '/config/propensities'],
    ['ranker', { trainingData: 'clicks', debiasing: 'ips', propensities: [1] }, '/config/propensities'],
    ['ranker', { trainingData: 'clicks', debiasing: 'ips', propensityClip: 0.001 }, '/config/propensityClip'],
    ['ranker', { replaceIfWorse: 'yes' }, '/config/replaceIfWorse'],
    ['ranker', { depth: 3 }, '/config/depth'],
    ['engagement_predictor', { target: 'purchase' }, '/config/target'],
  ])('400 for a %s with config %j, naming %s', async (type, config, path) => {
    expectError(await postJson(t.app, URL, { name: `bad-${path}-${type}`, type, config }), 400, 'VALIDATION_ERROR', path);
  });

  it('names every bad field at once', async () => {
    const res = await postJson(t.app, URL, { name: 'many', type: 'ranker', config: { numTrees: 0, learningRate: 2 } });
    expectError(res, 400, 'VALIDATION_ERROR', '/config/numTrees');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain('/config/learningRate');
  });

  it('accepts every documented setting', async () => {
    const ranker = {
      trainingData: 'dataset',
      numTrees: 50,
      learningRate: 0.05,
      numLeaves: 15,
      minDataInLeaf: 5,
      baggingFraction: 0.8,
      featureFraction: 0.9,
      earlyStoppingRounds: 10,
      validationFraction: 0.2,
      seed: 3,
      missing: 'zero',
      retrainEvery: '7d',
      window: '90d',
      heldOutFraction: 0.25,
      replaceIfWorse: true,
      algorithm: 'lambdamart',
    };
    expect((await postJson(t.app, URL, { name: 'full-ranker', type: 'ranker', config: ranker })).statusCode).toBe(201);
    const clicks = { trainingData: 'clicks', debiasing: 'ips', propensities: [1, 0.6, 0.4], propensityClip: 0.2, numTrees: 20 };
    expect((await postJson(t.app, URL, { name: 'full-clicks', type: 'ranker', config: clicks })).statusCode).toBe(201);
    const click = { algorithm: 'ubm', maxDepth: 5, iterations: 20, examinationMinImpressions: 10, retrainEvery: '24h', window: '30d' };
    expect((await postJson(t.app, URL, { name: 'full-click', type: 'click_model', config: click })).statusCode).toBe(201);
    expect(
      (
        await postJson(t.app, URL, {
          name: 'full-engage',
          type: 'engagement_predictor',
          config: { target: 'satisfied_click', numTrees: 30, algorithm: 'gbdt' },
        })
      ).statusCode,
    ).toBe(201);
  });

  it.each([
    ['POST', 'train', {}],
    ['GET', 'versions', undefined],
    ['POST', 'rank', { results: [{ resultId: 'a' }] }],
    ['GET', 'judgments', undefined],
    ['GET', 'export', undefined],
  ])('404 from %s …/{unknown}/%s', async (method, action, payload) => {
    const res = await request(t.app, { method: method as 'GET' | 'POST', url: `${URL}/nobody/${action}`, ...(payload ? { payload } : {}) });
    expectError(res, 404, 'NOT_FOUND');
  });

  it('409 for judgments, export and rank before a version exists; 409 for judgments of a ranker and export of a click model are covered by the trained-model tests', async () => {
    await postJson(t.app, URL, { modelId: 'fresh', name: 'fresh', type: 'click_model' });
    expectError(await getJson(t.app, `${URL}/fresh/judgments`), 409, 'CONFLICT');
    expectError(await getJson(t.app, `${URL}/fresh/export`), 409, 'CONFLICT');
    expectError(await postJson(t.app, `${URL}/fresh/rank`, { queryHash: 'q', results: [{ resultId: 'a' }] }), 409, 'CONFLICT');
  });

  it('400 for bad train bodies and version queries', async () => {
    await postJson(t.app, URL, { modelId: 'x1', name: 'x1', type: 'click_model' });
    expectError(await postJson(t.app, `${URL}/x1/train`, { force: 'yes' }), 400, 'VALIDATION_ERROR', '/force');
    expectError(await postJson(t.app, `${URL}/x1/train`, { priority: 1 }), 400, 'VALIDATION_ERROR', '/priority');
    expectError(await getJson(t.app, `${URL}/x1/versions?limit=0`), 400, 'VALIDATION_ERROR', '/limit');
    expectError(await getJson(t.app, `${URL}/x1/versions?cursor=nope`), 400, 'VALIDATION_ERROR', '/cursor');
  });

  it('a bare POST …/train without a body queues with the defaults', async () => {
    await postJson(t.app, URL, { modelId: 'x2', name: 'x2', type: 'click_model' });
    await t.container.learning.services.trainingService.runUntilIdle();
    const res = await request(t.app, { method: 'POST', url: `${URL}/x2/train` });
    expect(res.statusCode).toBe(202);
    expect(res.body.data).toMatchObject({ modelId: 'x2', status: 'queued', force: false });
  });

  it('lists models with their training state', async () => {
    const items = (await getJson(t.app, `${URL}?type=click_model`)).body.data.items;
    expect(items.length).toBeGreaterThan(0);
    for (const m of items) expect(m).toHaveProperty('activeVersion', null);
  });
});
