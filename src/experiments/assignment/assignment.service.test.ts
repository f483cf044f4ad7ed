import { describe, expect, it } from 'vitest';
import { ExperimentService } from '../definition/experiment.service.js';
import { FakeExperimentStore } from '../definition/fake-experiment.store.js';
import { FakeExperimentData } from '../model/fake-experiment-data.js';
import { ExperimentLifecycleService } from '../lifecycle/experiment-lifecycle.service.js';
import { AssignmentService } from './assignment.service.js';
import type { ExposureRecord } from '../model/exposure.store.js';
import { FakeExposureStore } from './fake-exposure.store.js';

function setup() {
  const clock = { now: () => Date.parse('2026-11-22T12:00:00Z') };
  const data = new FakeExperimentData();
  const experiments = new FakeExperimentStore(data);
  const exposures = new FakeExposureStore(data);
  const definitions = new ExperimentService(experiments, clock);
  const load = (id: string) => definitions.load(id);
  const fresh: ExposureRecord[] = [];
  const assignment = new AssignmentService(experiments, exposures, clock, load, undefined, (rows) => fresh.push(...rows));
  // Lifecycle changes on this instance reload the cache at once.
  const lifecycle = new ExperimentLifecycleService(experiments, clock, load, () => assignment.invalidate());
  return { data, exposures, definitions, lifecycle, assignment, fresh };
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
    const elsewhere = new ExperimentLifecycleService(new FakeExperimentStore(t.data), { now: () => Date.now() }, (id) =>
      t.definitions.load(id),
    );
    expect((await t.assignment.assignAll({ unitId: 'u' })).assignments).toEqual([]);
    await elsewhere.act(experimentId, 'start');
    expect((await t.assignment.assignAll({ unitId: 'u' })).assignments).toEqual([]);
    await t.assignment.refreshIfChanged();
    expect((await t.assignment.assignAll({ unitId: 'u' })).assignments.map((a) => a.experimentId)).toEqual([experimentId]);
  });
});
