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

  it('clears an alias (PUT modelId null, or DELETE): rank then serves the original order; the history and the view say who, when, why', async () => {
    const version = await trainRanker(t, 'r3', letor, { numTrees: 5, numLeaves: 4, minDataInLeaf: 5 });
    await put(t, 'production', { modelId: 'r3', reason: 'first ranker' });
    const call = {
      unitId: 'u1',
      queryId: 'q1',
      results: [
        { resultId: 'a', features: { f0: 1 } },
        { resultId: 'b', features: { f0: 2 } },
      ],
    };
    expect((await postJson(t.app, '/api/nous/rank', call)).body.data.served).toEqual({
      source: 'alias',
      alias: 'production',
      modelId: 'r3',
      version,
    });

    expectError(await put(t, 'production', { modelId: null, version: 1 }), 400, 'VALIDATION_ERROR', '/version');
    const cleared = await put(t, 'production', { modelId: null, reason: 'ranker hurts long queries' });
    expect(cleared.statusCode, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.data).toMatchObject({
      alias: 'production',
      modelId: null,
      version: null,
      servingVersion: null,
      updatedBy: 'anonymous',
      reason: 'ranker hurts long queries',
      experimentId: null,
    });
    const original = await postJson(t.app, '/api/nous/rank', { ...call, queryId: 'q2' });
    expect(original.body.data.served).toEqual({ source: 'original' });
    expect(original.body.data.results.map((r: { resultId: string }) => r.resultId)).toEqual(['a', 'b']);
    expect((await getJson(t.app, `${URL}/production`)).body.data.modelId).toBeNull();

    await put(t, 'production', { modelId: 'r3', version, reason: 'back on' });
    const deleted = await request(t.app, { method: 'DELETE', url: `${URL}/production?reason=${encodeURIComponent('incident 42')}` });
    expect(deleted.statusCode, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.data).toMatchObject({ modelId: null, reason: 'incident 42' });
    expect((await postJson(t.app, '/api/nous/rank', { ...call, queryId: 'q3' })).body.data.served).toEqual({ source: 'original' });

    const events = (await getJson(t.app, `${URL}/production/events`)).body.data.items.slice(-4);
    expect(events.map((e: { from: unknown; to: unknown; reason: unknown }) => [e.from, e.to, e.reason])).toEqual([
      [{ modelId: 'r2', version: 1 }, { modelId: 'r3', version: null }, 'first ranker'],
      [{ modelId: 'r3', version: null }, null, 'ranker hurts long queries'],
      [null, { modelId: 'r3', version }, 'back on'],
      [{ modelId: 'r3', version }, null, 'incident 42'],
    ]);
    expectError(await request(t.app, { method: 'DELETE', url: `${URL}/canary` }), 404, 'NOT_FOUND');
    expectError(await put(t, 'canary', { modelId: null }), 404, 'NOT_FOUND');
    expectError(await request(t.app, { method: 'DELETE', url: `${URL}/production?color=red` }), 400, 'VALIDATION_ERROR');
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
