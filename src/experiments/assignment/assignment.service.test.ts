import { describe, expect, it } from 'vitest';
import { createFakeExperiments, createFakeExperimentsStores } from '../fake-experiments.js';
import { createExperimentsServices } from '../experiments-services.js';
import type { ExposureRecord } from '../model/exposure.store.js';

function setup() {
  const fresh: ExposureRecord[] = [];
  // Lifecycle changes on this instance reload the cache at once.
  const fake = createFakeExperiments({ now: Date.parse('2026-11-22T12:00:00Z'), onNewExposures: (rows) => fresh.push(...rows) });
  const { experimentService: definitions, lifecycleService: lifecycle, assignmentService: assignment, data } = fake;
  return { data, exposures: fake.stores.exposures, definitions, lifecycle, assignment, fresh };
}

describe('AssignmentService (fake stores)', () => {
  it('records a unit’s first exposure once, whatever the number of concurrent calls, and reports it once', async () => {
    const t = setup();
    const { experimentId } = await t.definitions.create({ name: 'x', configuration: { variants: [{ id: 'a' }, { id: 'b' }] } });
    await t.lifecycle.act(experimentId, 'start');
    const views = await Promise.all([1, 2, 3].map(() => t.assignment.assignOne(experimentId, { unitId: 'u1' })));
    expect(new Set(views.map((v) => v.variantId)).size).toBe(1);
    expect(views[0]).toMatchObject({ inExperiment: true, phase: 0, reason: 'assigned' });
    expect(await t.exposures.countExposures(experimentId, 0)).toEqual({ [views[0]!.variantId!]: 1 });
    // The three calls were grouped into one write.
    expect(t.exposures.writes).toBe(1);
    expect(t.fresh.map((r) => r.unitId)).toEqual(['u1']);
  });

  it('serves nobody while paused, and refuses a covariate that names no metric', async () => {
    const t = setup();
    const { experimentId } = await t.definitions.create({ name: 'y', configuration: { variants: [{ id: 'a' }, { id: 'b' }] } });
    await t.lifecycle.act(experimentId, 'start');
    await t.lifecycle.act(experimentId, 'pause');
    expect(await t.assignment.assignOne(experimentId, { unitId: 'u' })).toMatchObject({ inExperiment: false, reason: 'experiment_paused' });
    expect((await t.assignment.assignAll({ unitId: 'u' })).assignments).toEqual([]);
    await expect(t.assignment.assignOne(experimentId, { unitId: 'u', attributes: { covariates: { clicks: 1 } } })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: '/attributes/covariates/clicks' }],
    });
  });

  it("picks up another instance's change through the revision poll", async () => {
    const t = setup();
    const { experimentId } = await t.definitions.create({ name: 'z', configuration: { variants: [{ id: 'a' }, { id: 'b' }] } });
    // Another instance over the same tables.
    const elsewhere = createExperimentsServices(createFakeExperimentsStores(t.data), { clock: { now: () => Date.now() } }).lifecycleService;
    expect((await t.assignment.assignAll({ unitId: 'u' })).assignments).toEqual([]);
    await elsewhere.act(experimentId, 'start');
    expect((await t.assignment.assignAll({ unitId: 'u' })).assignments).toEqual([]);
    await t.assignment.refreshIfChanged();
    expect((await t.assignment.assignAll({ unitId: 'u' })).assignments.map((a) => a.experimentId)).toEqual([experimentId]);
  });
});
