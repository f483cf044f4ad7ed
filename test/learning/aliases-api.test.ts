import { expect, it } from 'vitest';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { syntheticLetor } from './support/synthetic-letor.js';
import { trainRanker } from '../experiments/support/rankers.js';

const URL = '/api/nous/learn/aliases';
const put = (t: ReturnType<typeof useTestApp>, alias: string, body: unknown) =>
  request(t.app, { method: 'PUT', url: `${URL}/${alias}`, payload: body as object, headers: { 'content-type': 'application/json' } });

describeOnEveryDatabase('model aliases', (kind) => {
  const t = useTestApp(kind);
  const letor = syntheticLetor({ queries: 40, docsPerQuery: 10, features: 4, seed: 3 });

  it('points an alias at a ranker (fixed or following), resolves the serving version, and keeps the history', async () => {
    const version = await trainRanker(t, 'r1', letor, { numTrees: 5, numLeaves: 4, minDataInLeaf: 5 });
    await trainRanker(t, 'r2', letor, { numTrees: 10, numLeaves: 4, minDataInLeaf: 5 });
    expectError(await getJson(t.app, `${URL}/production`), 404, 'NOT_FOUND');

    const first = await put(t, 'production', { modelId: 'r1', reason: 'first ranker' });
    expect(first.statusCode, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ alias: 'production', modelId: 'r1', version: null, servingVersion: version });
    const second = await put(t, 'production', { modelId: 'r2', version: 1 });
    expect(second.body.data).toMatchObject({ modelId: 'r2', version: 1, servingVersion: 1 });
    await put(t, 'staging', { modelId: 'r1', version: 1 });

    expect((await getJson(t.app, URL)).body.data.items.map((a: { alias: string }) => a.alias)).toEqual(['production', 'staging']);
    const events = (await getJson(t.app, `${URL}/production/events`)).body.data.items;
    expect(events.map((e: { from: unknown; to: unknown; reason: unknown; actor: string }) => [e.from, e.to, e.reason, e.actor])).toEqual([
      [null, { modelId: 'r1', version: null }, 'first ranker', 'anonymous'],
      [{ modelId: 'r1', version: null }, { modelId: 'r2', version: 1 }, null, 'anonymous'],
    ]);
  });

  it('refuses an unknown model, a model that is not a ranker, a missing version and a bad alias name, naming the field', async () => {
    expectError(await put(t, 'production', { modelId: 'nope' }), 400, 'VALIDATION_ERROR', '/modelId');
    await postJson(t.app, '/api/nous/learn/models', { modelId: 'cm', name: 'cm', type: 'click_model' });
    expectError(await put(t, 'production', { modelId: 'cm' }), 400, 'VALIDATION_ERROR', '/modelId');
    expectError(await put(t, 'production', { modelId: 'r1', version: 99 }), 400, 'VALIDATION_ERROR', '/version');
    expectError(await put(t, 'Prod!', { modelId: 'r1' }), 400, 'VALIDATION_ERROR', '/alias');
    expectError(await getJson(t.app, `${URL}/nope/events`), 404, 'NOT_FOUND');
  });
});
