import { describe, expect, it } from 'vitest';
import { createFakeExperiments, createFakeExperimentsStores } from '../fake-experiments.js';
import { createExperimentsServices } from '../experiments-services.js';
import type { ExposureRecord } from '../model/exposure.store.js';
import { AssignmentService } from './assignment.service.js';
import { FakeExposureStore } from './fake-exposure.store.js';
import type { WriteBehindOptions } from '../../common/write-behind.js';

function setup() {
  const fresh: ExposureRecord[] = [];
  // Lifecycle changes on this instance reload the cache at once.
  const fake = createFakeExperiments({ now: Date.parse('2026-11-22T12:00:00Z'), onNewExposures: (rows) => fresh.push(...rows) });
  const { experimentService: definitions, lifecycleService: lifecycle, assignmentService: assignment, data } = fake;
  return { fake, data, exposures: fake.stores.exposures, definitions, lifecycle, assignment, fresh };
}

describe('AssignmentService (fake stores)', () => {
  it('records a unit’s first exposure once, whatever the number of concurrent calls, and reports it once', async () => {
    const t = setup();
    const { experimentId } = await t.definitions.create({ name: 'x', configuration: { variants: [{ id: 'a' }, { id: 'b' }] } });
    await t.lifecycle.act(experimentId, 'start');
    const views = await Promise.all([1, 2, 3].map(() => t.assignment.assignOne(experimentId, { unitId: 'u1' })));
    await t.assignment.drain();
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

/**
 * An assignment service over a running two-variant experiment whose exposure writes wait for
 * the test to open a gate, one write at a time: the answer must not wait for them.
 */
async function gated(queue: WriteBehindOptions = {}) {
  const t = setup();
  const { experimentId } = await t.definitions.create({ name: 'g', configuration: { variants: [{ id: 'a' }, { id: 'b' }] } });
  await t.lifecycle.act(experimentId, 'start');
  const store = new FakeExposureStore(t.data);
  const gates: (() => void)[] = [];
  const written: string[][] = [];
  const service = new AssignmentService({
    experiments: t.fake.stores.experiments,
    exposures: {
      recordExposures: async (rows) => {
        await new Promise<void>((open) => gates.push(open));
        written.push(rows.map((r) => r.unitId));
        return store.recordExposures(rows);
      },
    },
    clock: { now: () => Date.parse('2026-11-22T12:00:00Z') },
    loadExperiment: (id) => t.definitions.load(id),
    exposureQueue: queue,
  });
  /** Waits until a write has started (it stays at its gate). */
  const writeStarted = async () => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
  };
  /** Opens the gate of the write in progress (waiting for it to start). */
  const openNext = async () => {
    await writeStarted();
    gates.shift()!();
  };
  return { experimentId, service, store, written, writeStarted, openNext, stored: () => store.countExposures(experimentId, 0) };
}

describe('AssignmentService: exposures behind the answer', () => {
  it('answers before its exposure is written, and the exposure is written once the write completes', async () => {
    const g = await gated();
    const view = await g.service.assignOne(g.experimentId, { unitId: 'u1' });
    expect(view).toMatchObject({ inExperiment: true });
    // The write has not happened (its gate is shut), yet the answer is here.
    expect(await g.stored()).toEqual({});
    expect(g.service.pendingExposures).toBe(1);
    await g.writeStarted();
    const all = await g.service.assignAll({ unitId: 'u2' });
    expect(await g.stored()).toEqual({});
    expect(all.assignments).toHaveLength(1);
    const settled = g.service.settled();
    await g.openNext(); // u1's group
    await g.openNext(); // u2's group, queued while u1's was being written
    await settled;
    await g.service.drain();
    expect(g.written).toEqual([['u1'], ['u2']]);
    expect(await g.stored()).toEqual(countOf(view.variantId!, all.assignments[0]!.variantId!));
    expect(g.service.pendingExposures).toBe(0);
  });

  it('pushes back once more exposures than maxBacklog wait: the call over the limit waits for a write', async () => {
    const g = await gated({ maxBacklog: 2 });
    await g.service.assignOne(g.experimentId, { unitId: 'u1' });
    await g.writeStarted(); // u1 in flight
    await g.service.assignOne(g.experimentId, { unitId: 'u2' }); // queued
    let answered = false;
    const third = g.service.assignOne(g.experimentId, { unitId: 'u3' }).then((v) => {
      answered = true;
      return v;
    });
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    expect(g.service.pendingExposures).toBe(3);
    await g.openNext(); // u1 written: two wait, the limit
    expect(await third).toMatchObject({ inExperiment: true });
    await g.openNext(); // u2 and u3
    await g.service.drain();
    expect(g.written.flat()).toEqual(['u1', 'u2', 'u3']);
  });

  it('drain and settled resolve only once the answered exposures are written; settled does not wait for later ones', async () => {
    const g = await gated();
    await g.service.assignOne(g.experimentId, { unitId: 'u1' });
    await g.writeStarted();
    const settling = g.service.settled();
    const state = { drained: false, settled: false };
    const drain = g.service.drain().then(() => (state.drained = true));
    void settling.then(() => (state.settled = true));
    // u2 is answered after settled() was asked for, while u1 is being written.
    await g.service.assignOne(g.experimentId, { unitId: 'u2' });
    await new Promise((r) => setImmediate(r));
    expect(state).toEqual({ drained: false, settled: false });
    await g.openNext();
    await settling;
    await new Promise((r) => setImmediate(r));
    expect(state).toEqual({ drained: false, settled: true });
    await g.openNext();
    await drain;
    expect(g.written).toEqual([['u1'], ['u2']]);
    expect(Object.values(await g.stored()).reduce((a, b) => a + b, 0)).toBe(2);
  });
});

function countOf(a: string, b: string): Record<string, number> {
  return a === b ? { [a]: 2 } : { [a]: 1, [b]: 1 };
}
