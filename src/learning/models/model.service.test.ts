import { describe, expect, it } from 'vitest';
import { createFakeLearningStores, createFakeModelService } from '../fake-learning.js';

function setup() {
  const stores = createFakeLearningStores();
  const service = createFakeModelService({ clock: { now: () => Date.parse('2026-11-22T12:00:00Z') }, stores });
  return { data: stores.data, service, jobs: stores.jobs };
}

describe('ModelService (fake stores)', () => {
  it('registers a model with its first training job, except a dataset ranker, which waits for its upload', async () => {
    const t = setup();
    expect(await t.service.register({ modelId: 'pbm', name: 'pbm', type: 'click_model', config: { algorithm: 'pbm' } })).toMatchObject({
      modelId: 'pbm',
      status: 'pending',
      activeVersion: null,
    });
    await t.service.register({ modelId: 'letor', name: 'letor', type: 'ranker', config: { trainingData: 'dataset' } });
    expect([...t.data.jobs.values()].map((j) => [j.modelId, j.reason])).toEqual([['pbm', 'created']]);
  });

  it('names the taken field in a conflict, and ensure() registers once', async () => {
    const t = setup();
    await t.service.register({ modelId: 'm', name: 'one', type: 'click_model' });
    await expect(t.service.register({ modelId: 'm', name: 'two', type: 'click_model' })).rejects.toMatchObject({
      code: 'CONFLICT',
      details: [{ path: '/modelId' }],
    });
    await expect(t.service.register({ name: 'one', type: 'click_model' })).rejects.toMatchObject({ details: [{ path: '/name' }] });
    expect(await t.service.ensure({ modelId: 'm', name: 'one', type: 'click_model' })).toBe(false);
    expect(await t.service.ensure({ modelId: 'n', name: 'n', type: 'click_model' })).toBe(true);
  });

  it('lists versions newest first with the active one marked, a page at a time', async () => {
    const t = setup();
    await t.service.register({ modelId: 'm', name: 'm', type: 'click_model' });
    const job = [...t.data.jobs.values()][0]!;
    expect(await t.jobs.claim('me', Date.parse('2026-11-23T00:00:00Z'), 100)).toBeDefined();
    const version = {
      modelId: 'm',
      jobId: job.id,
      message: null,
      metrics: {},
      counts: {},
      windowStart: 0,
      windowEnd: 1,
      trainingSeconds: 1,
    };
    const run = { jobId: job.id, owner: 'me', finishedAt: 2, jobStatus: 'succeeded' as const, jobError: null, nextRetrainAt: null };
    await t.jobs.complete({
      ...run,
      version: { ...version, outcome: 'activated', createdAt: 2, artifact: '{}' },
      model: { status: 'ready', error: null },
      outcome: { at: 2, outcome: 'activated', message: null },
    });
    const page = await t.service.listVersions('m', { limit: 1 });
    expect(page.items.map((v) => [v.version, v.active])).toEqual([[1, true]]);
    expect(page.nextCursor).toBeNull();
    expect((await t.service.get('m')).activeVersion).toBe(1);
    await expect(t.service.listVersions('nope', { limit: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
