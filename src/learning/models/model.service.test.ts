import { describe, expect, it } from 'vitest';
import { createFakeLearningStores, createFakeModelService } from '../fake-learning.js';
import { ModelService } from './model.service.js';

// A two-leaf LightGBM text model: enough for the service's bookkeeping (the parsers have their own tests).
const LIGHTGBM =
  'tree\nnum_class=1\nmax_feature_idx=0\nobjective=lambdarank\nfeature_names=bm25\n\nTree=0\nnum_leaves=2\nsplit_feature=0\nthreshold=1\ndecision_type=2\nleft_child=-1\nright_child=-2\nleaf_value=0 1\n';

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

  it('imports a ranker version: next number, active when asked, a model.imported line and a model.activated one', async () => {
    const stores = createFakeLearningStores();
    const lines: [string, Record<string, unknown>, string][] = [];
    const clock = { now: () => Date.parse('2026-11-22T12:00:00Z') };
    const service = new ModelService(stores.models, stores.versions, clock, { record: (...line) => lines.push(line) });
    await service.register({ modelId: 'r', name: 'r', type: 'ranker', config: { trainingData: 'dataset' } });
    const first = await service.importVersion('r', { format: 'lightgbm-text', model: LIGHTGBM, note: 'from spark' });
    expect(first).toMatchObject({ modelId: 'r', version: 1, active: false, source: 'import', imported: { trees: 1, features: 1 } });
    expect((await service.get('r')).activeVersion).toBeNull();
    const second = await service.importVersion('r', { format: 'lightgbm-text', model: LIGHTGBM, activate: true });
    expect(second).toMatchObject({ version: 2, active: true, outcome: 'activated' });
    expect(await service.get('r')).toMatchObject({ status: 'ready', activeVersion: 2, metrics: { version: 2, source: 'import' } });
    expect(lines.map(([event, , message]) => [event, message])).toEqual([
      ['model.imported', 'model "r" imported: v1 from lightgbm-text (1 tree, 1 feature: from spark)'],
      ['model.imported', 'model "r" imported: v2 from lightgbm-text (1 tree, 1 feature)'],
      ['model.activated', 'model "r" v2 activated (its first version)'],
    ]);
    expect(lines[0]![1]).toEqual({ modelId: 'r', version: 1, format: 'lightgbm-text', trees: 1, features: 1, activated: false });
    await service.register({ modelId: 'c', name: 'c', type: 'click_model' });
    await expect(service.importVersion('c', { format: 'lightgbm-text', model: LIGHTGBM })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(service.importVersion('r', { format: 'lightgbm-text', model: 'nope' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: '/model' }],
    });
  });
});
