import { expect, it } from 'vitest';
import { expectError, getJson, postJson } from '../support/http.js';
import { useTestApp, type TestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { syntheticLetor } from '../learning/support/synthetic-letor.js';
import { trainRanker } from './support/rankers.js';

const BASE = '/api/nous/ab-testing/experiments';

/** A started A/B test of the engine's order against ranker `r`, with or without a promotion target. */
async function startedTest(t: TestApp, name: string, promote?: { alias: string }): Promise<string> {
  const created = await postJson(t.app, BASE, {
    name,
    configuration: {
      variants: [{ id: 'engine' }, { id: 'ranker', model: { modelId: 'r' } }],
      targetMetrics: ['mrr'],
      ...(promote ? { promote } : {}),
    },
  });
  expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.experimentId as string;
  expect((await postJson(t.app, `${BASE}/${id}/start`, {})).statusCode).toBe(200);
  return id;
}

describeOnEveryDatabase('concluding says what serves afterwards; an alias can be named at conclusion', (kind) => {
  const t = useTestApp(kind);

  it('ship without a promotion target moves nothing, and the answer says so in data.conclusion.summary', async () => {
    await trainRanker(t, 'r', syntheticLetor({ queries: 30, docsPerQuery: 8, features: 4, seed: 5 }), { numTrees: 4, numLeaves: 4 });
    const id = await startedTest(t, 'no target');
    const shipped = await postJson(t.app, `${BASE}/${id}/conclude`, { decision: 'ship', winnerVariantId: 'ranker' });
    expect(shipped.statusCode, JSON.stringify(shipped.body)).toBe(200);
    const conclusion = shipped.body.data.conclusion;
    expect(conclusion.promotion).toBeUndefined();
    expect(conclusion.summary).toBe(
      'no alias moved: nothing serves "ranker" (v1 of r) now; searches outside experiments keep the engine\'s original order ' +
        '(alias "production"). Conclude with promote, or point an alias at it, to ship it',
    );
    expectError(await getJson(t.app, '/api/nous/learn/aliases/production'), 404, 'NOT_FOUND');
    // The summary is stored: reading the experiment again gives the same sentence.
    expect((await getJson(t.app, `${BASE}/${id}`)).body.data.conclusion.summary).toBe(conclusion.summary);
  });

  it('promote named at conclusion moves that alias in the same write, is in the audit log, and the summary names the move', async () => {
    const id = await startedTest(t, 'named at conclusion');
    expectError(
      await postJson(t.app, `${BASE}/${id}/conclude`, { decision: 'rollback', promote: { alias: 'production' } }),
      400,
      'VALIDATION_ERROR',
      '/promote',
    );
    expectError(
      await postJson(t.app, `${BASE}/${id}/conclude`, { decision: 'ship', winnerVariantId: 'engine', promote: { alias: 'production' } }),
      409,
      'CONFLICT',
      '/promote',
    );
    expectError(
      await postJson(t.app, `${BASE}/${id}/conclude`, { decision: 'ship', winnerVariantId: 'ranker', promote: { alias: 'Prod!' } }),
      400,
      'VALIDATION_ERROR',
      '/promote/alias',
    );
    const shipped = await postJson(t.app, `${BASE}/${id}/conclude`, {
      decision: 'ship',
      winnerVariantId: 'ranker',
      promote: { alias: 'production' },
    });
    expect(shipped.statusCode, JSON.stringify(shipped.body)).toBe(200);
    expect(shipped.body.data.conclusion).toMatchObject({
      promotion: { alias: 'production', modelId: 'r', version: 1, from: null },
      summary: 'alias "production" moved from the engine\'s original order to v1 of r',
    });
    const alias = (await getJson(t.app, '/api/nous/learn/aliases/production')).body.data;
    expect(alias).toMatchObject({
      modelId: 'r',
      version: 1,
      experimentId: id,
      reason: 'experiment "named at conclusion" concluded: ship ranker',
    });
    const audit = (await getJson(t.app, `${BASE}/${id}/events`)).body.data.items;
    expect(audit.at(-1).after).toMatchObject({
      promoteNamedAtConclusion: { alias: 'production' },
      conclusion: { promotion: { alias: 'production' } },
    });
  });

  it('the conclusion-time alias overrides configuration.promote; rollback says nothing moves and what keeps serving', async () => {
    const id = await startedTest(t, 'override', { alias: 'production' });
    const shipped = await postJson(t.app, `${BASE}/${id}/conclude`, {
      decision: 'ship',
      winnerVariantId: 'ranker',
      promote: { alias: 'canary' },
    });
    expect(shipped.body.data.conclusion.promotion).toMatchObject({ alias: 'canary', from: null });
    expect((await getJson(t.app, '/api/nous/learn/aliases/canary')).body.data.modelId).toBe('r');
    expect((await getJson(t.app, '/api/nous/learn/aliases/production')).body.data.experimentId).not.toBe(id);

    const other = await startedTest(t, 'rolled back', { alias: 'production' });
    const rolledBack = await postJson(t.app, `${BASE}/${other}/conclude`, { decision: 'rollback' });
    expect(rolledBack.body.data.conclusion.summary).toBe('nothing moves: searches outside experiments keep v1 of r (alias "production")');
  });
});
