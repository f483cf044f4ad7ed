import { expect, it } from 'vitest';
import { KyselyAliasStore } from '../../src/learning/aliases/alias.kysely-store.js';
import { KyselyModelVersionStore } from '../../src/learning/models/model-version.kysely-store.js';
import { getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { syntheticLetor } from './support/synthetic-letor.js';
import { trainRanker } from '../experiments/support/rankers.js';

const call = (queryId: string) => ({
  unitId: 'u1',
  queryId,
  results: [
    { resultId: 'a', features: { f0: 1, f1: 0.5 } },
    { resultId: 'b', features: { f0: 2, f1: 0.1 } },
  ],
});
const served = async (t: ReturnType<typeof useTestApp>, queryId: string) => {
  const res = await postJson(t.app, '/api/nous/rank', call(queryId));
  expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
  return res.body.data.served;
};
const putAlias = (t: ReturnType<typeof useTestApp>, body: object) =>
  request(t.app, {
    method: 'PUT',
    url: '/api/nous/learn/aliases/production',
    payload: body,
    headers: { 'content-type': 'application/json' },
  });

// Rank reads the alias, the model and its active version from memory (learning's ServingCache).
describeOnEveryDatabase('rank serving cache', (kind) => {
  const t = useTestApp(kind);
  const letor = syntheticLetor({ queries: 40, docsPerQuery: 10, features: 4, seed: 3 });
  const tiny = { numTrees: 3, numLeaves: 4, minDataInLeaf: 5 };

  it('serves a local change at once: an alias moved, a version trained behind a following alias', async () => {
    const v1 = await trainRanker(t, 'c1', letor, tiny);
    await trainRanker(t, 'c2', letor, tiny);
    expect(await served(t, 'q0')).toEqual({ source: 'original' });
    await putAlias(t, { modelId: 'c1' });
    expect(await served(t, 'q1')).toMatchObject({ source: 'alias', modelId: 'c1', version: v1 });
    await putAlias(t, { modelId: 'c2', version: 1 });
    expect(await served(t, 'q2')).toMatchObject({ modelId: 'c2', version: 1 });
    await putAlias(t, { modelId: 'c1' });
    expect(await served(t, 'q3')).toMatchObject({ modelId: 'c1', version: v1 });

    // A retrain of the followed model activates v2 (the job store's commit clears the cache).
    const retrain = await postJson(t.app, '/api/nous/learn/models/c1/train', {});
    expect(retrain.statusCode, JSON.stringify(retrain.body)).toBeLessThan(300);
    await t.container.learning.services.trainingService.runUntilIdle();
    const active = (await getJson(t.app, '/api/nous/learn/models/c1')).body.data.activeVersion as number;
    expect(active).toBeGreaterThan(v1);
    expect(await served(t, 'q4')).toMatchObject({ modelId: 'c1', version: active });
  });

  it("sees another instance's alias move and activated version after the 1-second poll, not before", async () => {
    const v1 = await trainRanker(t, 'o1', letor, tiny);
    await trainRanker(t, 'o2', letor, tiny);
    await putAlias(t, { modelId: 'o1' });
    const cache = t.container.learning.servingCache;
    await cache.refreshIfChanged();
    expect(await served(t, 'p1')).toMatchObject({ modelId: 'o1', version: v1 });

    // Another instance activates a new version of o1 (its own store, not this instance's wrapped one).
    const other = new KyselyModelVersionStore(t.database.db, t.database.capabilities);
    const artifact = (await other.getArtifact('o1', v1))!;
    const at = Date.now();
    const { version: v2 } = await other.insertImported({
      modelId: 'o1',
      importId: 'other-instance',
      outcome: 'activated',
      message: 'elsewhere',
      metrics: {},
      counts: {},
      artifact,
      createdAt: at,
      lastOutcome: { at, outcome: 'activated', message: 'elsewhere' },
    });
    expect(await served(t, 'p2')).toMatchObject({ modelId: 'o1', version: v1 });
    await cache.refreshIfChanged();
    expect(await served(t, 'p3')).toMatchObject({ modelId: 'o1', version: v2 });

    // … and moves the alias.
    const aliases = new KyselyAliasStore(t.database.db);
    const move = t.container.learning.services.aliasService.change({
      alias: 'production',
      modelId: 'o2',
      version: 1,
      actor: 'other',
      reason: null,
      at: Date.now(),
    });
    await aliases.move(move);
    expect(await served(t, 'p4')).toMatchObject({ modelId: 'o1' });
    await cache.refreshIfChanged();
    expect(await served(t, 'p5')).toMatchObject({ modelId: 'o2', version: 1 });

    const poll = t.container.tasks.find((task) => task.name === 'serving-cache-poll');
    expect(poll?.intervalMs).toBe(1000);
  });
});
