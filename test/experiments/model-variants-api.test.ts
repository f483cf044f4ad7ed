import { expect, it } from 'vitest';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { syntheticLetor } from '../learning/support/synthetic-letor.js';
import { trainRanker } from './support/rankers.js';

const URL = '/api/nous/ab-testing/experiments';
const variants = (model: Record<string, unknown>) => [
  { id: 'original', weight: 0.5 },
  { id: 'ltr', weight: 0.5, model },
];

describeOnEveryDatabase('model-backed variants', (kind) => {
  const t = useTestApp(kind);
  const letor = syntheticLetor({ queries: 40, docsPerQuery: 10, features: 4, seed: 5 });

  it('refuses a model that does not exist, is not a ranker, or lacks the version, naming the variant’s field', async () => {
    await postJson(t.app, '/api/nous/learn/models', { modelId: 'cm', name: 'cm', type: 'click_model' });
    await trainRanker(t, 'r1', letor, { numTrees: 5, numLeaves: 4, minDataInLeaf: 5 });
    const create = (model: Record<string, unknown>) =>
      postJson(t.app, URL, { name: `e-${JSON.stringify(model)}`, configuration: { variants: variants(model) } });
    expectError(await create({ modelId: 'nope' }), 400, 'VALIDATION_ERROR', '/configuration/variants/1/model/modelId');
    expectError(await create({ modelId: 'cm' }), 400, 'VALIDATION_ERROR', '/configuration/variants/1/model/modelId');
    expectError(await create({ modelId: 'r1', version: 7 }), 400, 'VALIDATION_ERROR', '/configuration/variants/1/model/version');
    expectError(await create({ modelId: 'r1', extra: 1 }), 400, 'VALIDATION_ERROR');
  });

  it('pins each model-backed variant to the active version at start, shows it on the experiment and in the audit log', async () => {
    const created = await postJson(t.app, URL, { name: 'pin', configuration: { variants: variants({ modelId: 'r1' }) } });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.experimentId as string;
    expect(created.body.data.variants[1].model).toEqual({ modelId: 'r1' });
    const started = await postJson(t.app, `${URL}/${id}/start`, {});
    expect(started.statusCode, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data.variants[1].model).toEqual({ modelId: 'r1', pinnedVersion: 1 });
    expect(started.body.data.variants[0].model).toBeUndefined();
    const events = (await getJson(t.app, `${URL}/${id}/events`)).body.data.items;
    expect(events.at(-1)).toMatchObject({ action: 'start', after: { status: 'running', pinned: { ltr: { modelId: 'r1', version: 1 } } } });

    // A retrain does not move the arm; a new phase re-pins to the version active then.
    await postJson(t.app, '/api/nous/learn/models/r1/train', { force: true });
    await t.container.learning.services.trainingService.runUntilIdle();
    const model = (await getJson(t.app, '/api/nous/learn/models/r1')).body.data;
    expect((await getJson(t.app, `${URL}/${id}`)).body.data.variants[1].model.pinnedVersion).toBe(1);
    const phased = await request(t.app, {
      method: 'PATCH',
      url: `${URL}/${id}`,
      payload: { newPhase: true, configuration: { trafficAllocation: 0.5 } },
      headers: { 'content-type': 'application/json' },
    });
    expect(phased.statusCode, JSON.stringify(phased.body)).toBe(200);
    expect(phased.body.data.variants[1].model.pinnedVersion).toBe(model.activeVersion);
  });
});
