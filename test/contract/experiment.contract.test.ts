import { expect, it } from 'vitest';
import { KyselyExperimentStore } from '../../src/experiments/definition/experiment.kysely-store.js';
import type { ExperimentStore } from '../../src/experiments/model/experiment.store.js';
import { FakeExperimentStore } from '../../src/experiments/definition/fake-experiment.store.js';
import { describeContract } from './support/contract.js';
import { configuration, event, experiment } from './support/experiments.js';

/** Starts an experiment: running, phase 0 opened. */
async function start(store: ExperimentStore, id: string, at: number) {
  const e = (await store.get(id))!;
  const next = { ...e, status: 'running' as const, updatedAt: at };
  const startPhase = { experimentId: id, phase: 0, seed: id, configuration: e.configuration, startedAt: at, endedAt: null };
  return store.update({ next, event: event(`ev-${id}-start`, id, 'start', at), startPhase }, e.updatedAt);
}

describeContract<ExperimentStore>(
  'ExperimentStore',
  { kysely: (database) => new KyselyExperimentStore(database.db), fake: () => new FakeExperimentStore() },
  (store) => {
    it('stores an experiment with its creation event; a taken name writes nothing', async () => {
      const e = experiment('e1', { description: 'why', startDate: 5000, endDate: 9000 });
      expect(await store().insert(e, event('ev1', 'e1', 'create'))).toBe('inserted');
      expect(await store().get('e1')).toEqual(e);
      expect(await store().insert(experiment('e2', { name: e.name }), event('ev2', 'e2', 'create'))).toBe('duplicate');
      expect(await store().get('e2')).toBeUndefined();
      expect(await store().listEvents('e2', undefined, 10)).toEqual([]);
      expect(await store().listEvents('e1', undefined, 10)).toEqual([event('ev1', 'e1', 'create')]);
    });

    it('lists newest first by (createdAt, id), filtered by status, after a keyset position', async () => {
      await store().insert(experiment('e1', { createdAt: 1000 }), event('ev1', 'e1', 'create'));
      await store().insert(experiment('e3', { createdAt: 2000 }), event('ev3', 'e3', 'create'));
      await store().insert(experiment('e2', { createdAt: 2000, status: 'archived' }), event('ev2', 'e2', 'create'));
      expect((await store().list({}, 10)).map((e) => e.id)).toEqual(['e3', 'e2', 'e1']);
      expect((await store().list({ status: 'archived' }, 10)).map((e) => e.id)).toEqual(['e2']);
      expect((await store().list({ after: { createdAt: 2000, id: 'e3' } }, 1)).map((e) => e.id)).toEqual(['e2']);
    });

    it('applies a change only over the expected updatedAt; a rename onto a taken name is a duplicate', async () => {
      await store().insert(experiment('e1'), event('ev1', 'e1', 'create'));
      await store().insert(experiment('e2'), event('ev2', 'e2', 'create'));
      const e1 = (await store().get('e1'))!;
      const renamed = { ...e1, name: 'renamed', updatedAt: 2000 };
      expect(await store().update({ next: renamed, event: event('ev3', 'e1', 'update', 2000) }, 999)).toBe('stale');
      expect(await store().update({ next: { ...renamed, name: 'experiment e2' }, event: event('ev3', 'e1', 'update', 2000) }, 1000)).toBe(
        'duplicate',
      );
      expect(await store().update({ next: renamed, event: event('ev3', 'e1', 'update', 2000) }, 1000)).toBe('updated');
      expect(await store().get('e1')).toEqual(renamed);
      expect((await store().listEvents('e1', undefined, 10)).map((e) => e.id)).toEqual(['ev1', 'ev3']);
      expect((await store().listEvents('e1', 'ev1', 10)).map((e) => e.id)).toEqual(['ev3']);
    });

    it('opens and closes phases with the changes that carry them', async () => {
      await store().insert(experiment('e1'), event('ev1', 'e1', 'create'));
      expect(await start(store(), 'e1', 2000)).toBe('updated');
      const running = (await store().get('e1'))!;
      const next = { ...running, phase: 1, configuration: configuration({ trafficAllocation: 0.5 }), updatedAt: 3000 };
      const startPhase = { experimentId: 'e1', phase: 1, seed: 'e1:1', configuration: next.configuration, startedAt: 3000, endedAt: null };
      await store().update({ next, event: event('ev-new-phase', 'e1', 'new_phase', 3000), endPhaseAt: 3000, startPhase }, 2000);
      expect(await store().getPhase('e1', 0)).toMatchObject({ phase: 0, seed: 'e1', startedAt: 2000, endedAt: 3000 });
      expect(await store().getPhase('e1', 1)).toEqual(startPhase);
      expect(await store().getPhase('e1', 2)).toBeUndefined();
      expect((await store().listPhases(['e1', 'other'])).map((p) => p.phase).sort()).toEqual([0, 1]);
      expect(await store().listPhases([])).toEqual([]);
    });

    it('serves running and concluded experiments, and its revision moves with every write only', async () => {
      const before = await store().revision();
      expect(await store().revision()).toBe(before);
      await store().insert(experiment('e1'), event('ev1', 'e1', 'create'));
      await store().insert(experiment('e2', { status: 'concluded' }), event('ev2', 'e2', 'create'));
      await store().insert(experiment('e3', { status: 'paused' }), event('ev3', 'e3', 'create'));
      const afterInserts = await store().revision();
      expect(afterInserts).not.toBe(before);
      await start(store(), 'e1', 2000);
      expect(await store().revision()).not.toBe(afterInserts);
      expect((await store().listServing()).map((e) => e.id).sort()).toEqual(['e1', 'e2']);
    });

    it('finds what the clock must move: scheduled past their start, open past their end', async () => {
      await store().insert(experiment('start-due', { status: 'scheduled', startDate: 5000 }), event('a', 'start-due', 'create'));
      await store().insert(experiment('start-later', { status: 'scheduled', startDate: 9000 }), event('b', 'start-later', 'create'));
      await store().insert(experiment('end-due', { status: 'paused', endDate: 4000 }), event('c', 'end-due', 'create'));
      await store().insert(experiment('stopped', { status: 'stopped', endDate: 4000 }), event('d', 'stopped', 'create'));
      expect((await store().listDue(5000)).map((e) => e.id).sort()).toEqual(['end-due', 'start-due']);
    });
  },
);
