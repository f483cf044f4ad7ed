import { expect, it } from 'vitest';
import { expectError, getJson, postJson } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const URL = '/api/nous/learn/models';

describeOnEveryDatabase('models API', (kind) => {
  const t = useTestApp(kind);

  it('registers a model (201, pending) and GET returns {modelId, name, type, status, metrics, lastUpdated}', async () => {
    const res = await postJson(t.app, URL, { name: 'pbm-main', type: 'click_model', config: { algorithm: 'pbm' } });
    expect(res.statusCode).toBe(201);
    const id = res.body.data.modelId;
    const back = await getJson(t.app, `${URL}/${id}`);
    expect(back.statusCode).toBe(200);
    expect(back.body.success).toBe(true);
    expect(back.body.data).toMatchObject({
      modelId: id,
      name: 'pbm-main',
      type: 'click_model',
      status: 'pending',
      metrics: {},
      config: { algorithm: 'pbm' },
    });
    expect(new Date(back.body.data.lastUpdated).toISOString()).toBe(back.body.data.lastUpdated);
  });

  it('accepts a caller-chosen modelId and refuses it twice', async () => {
    const res = await postJson(t.app, URL, { modelId: 'ranker-v1', name: 'ranker one', type: 'ranker' });
    expect(res.statusCode).toBe(201);
    expect((await getJson(t.app, `${URL}/ranker-v1`)).body.data.type).toBe('ranker');
    expectError(await postJson(t.app, URL, { modelId: 'ranker-v1', name: 'other', type: 'ranker' }), 409, 'CONFLICT', '/modelId');
    expectError(await postJson(t.app, URL, { name: 'ranker one', type: 'ranker' }), 409, 'CONFLICT', '/name');
  });

  it('404 in the envelope for an unknown model', async () => {
    expectError(await getJson(t.app, `${URL}/does-not-exist`), 404, 'NOT_FOUND');
  });

  it.each([
    ['name missing', { type: 'ranker' }, '/name'],
    ['type missing', { name: 'x' }, '/type'],
    ['type unknown', { name: 'x', type: 'neural_net' }, '/type'],
    ['config not an object', { name: 'x', type: 'ranker', config: [1] }, '/config'],
    ['modelId with a slash', { modelId: 'a/b', name: 'x', type: 'ranker' }, '/modelId'],
    ['unknown field', { name: 'x', type: 'ranker', owner: 'me' }, '/owner'],
    ['config over 16 KiB', { name: 'x', type: 'ranker', config: { blob: 'x'.repeat(17000) } }, '/config'],
  ])('400 when %s', async (_n, body, path) => {
    expectError(await postJson(t.app, URL, body), 400, 'VALIDATION_ERROR', path);
  });

  it('lists newest first, filters by type and status, and pages with a cursor', async () => {
    for (let i = 0; i < 4; i += 1) await postJson(t.app, URL, { name: `engagement-${i}`, type: 'engagement_predictor' });
    const first = await getJson(t.app, `${URL}?type=engagement_predictor&limit=3`);
    expect(first.body.data.items).toHaveLength(3);
    expect(first.body.data.items.map((m: { name: string }) => m.name)).toEqual(['engagement-3', 'engagement-2', 'engagement-1']);
    const second = await getJson(t.app, `${URL}?type=engagement_predictor&limit=3&cursor=${first.body.data.nextCursor}`);
    expect(second.body.data.items.map((m: { name: string }) => m.name)).toEqual(['engagement-0']);
    expect(second.body.data.nextCursor).toBeNull();
    expect((await getJson(t.app, `${URL}?status=ready`)).body.data.items).toEqual([]);
    expectError(await getJson(t.app, `${URL}?status=done`), 400, 'VALIDATION_ERROR', '/status');
  });
});
