import { expect, it } from 'vitest';
import { KyselyExplorationStore } from '../../src/experiments/ranking/exploration.kysely-store.js';
import type { ExplorationSettings, ExplorationStore, ExploredList } from '../../src/experiments/ranking/exploration.store.js';
import { FakeExplorationStore } from '../../src/experiments/ranking/fake-exploration.store.js';
import { describeContract } from './support/contract.js';

const settings = (share: number, at: number): ExplorationSettings => ({
  share,
  depth: 4,
  method: 'randpair',
  enabledAt: share > 0 ? at : null,
  updatedAt: at,
  updatedBy: 'ann',
});

const list = (unitId: string, queryId: string, recordedAt: number, over: Partial<ExploredList> = {}): ExploredList => ({
  unitId,
  queryId,
  queryHash: 'shoes',
  resultIds: ['b', 'a', 'c'],
  swapped: [1, 2],
  propensity: 0.5,
  share: 0.05,
  recordedAt,
  ...over,
});

describeContract<ExplorationStore>(
  'ExplorationStore',
  { kysely: (database) => new KyselyExplorationStore(database.db), fake: () => new FakeExplorationStore() },
  (store) => {
    it('has no settings until saved; a save replaces them and keeps each change, newest first', async () => {
      expect(await store().settings()).toBeNull();
      await store().save({ id: '01A', at: 1000, actor: 'ann', before: null, after: settings(0.05, 1000) });
      await store().save({ id: '01B', at: 2000, actor: 'bob', before: settings(0.05, 1000), after: settings(0, 2000) });
      expect(await store().settings()).toEqual({ ...settings(0, 2000), enabledAt: null });
      expect(await store().changes(10)).toEqual([
        { id: '01B', at: 2000, actor: 'bob', before: settings(0.05, 1000), after: settings(0, 2000) },
        { id: '01A', at: 1000, actor: 'ann', before: null, after: settings(0.05, 1000) },
      ]);
      expect(await store().changes(1)).toHaveLength(1);
    });

    it('records a list once per (unit, query): a retried call keeps the first; counts and lists by time', async () => {
      expect(await store().record(list('u1', 'q1', 1000))).toBe(true);
      expect(await store().record(list('u1', 'q1', 3000, { resultIds: ['a', 'c', 'b'], swapped: [2, 3] }))).toBe(false);
      expect(await store().record(list('u2', 'q1', 2000, { queryHash: null, propensity: 1 / 3, share: 0.2 }))).toBe(true);
      expect(await store().record(list('u1', 'q2', 3000))).toBe(true);
      expect(await store().countSince(0)).toBe(3);
      expect(await store().countSince(2000)).toBe(2);
      expect(await store().listSince(1500, 10)).toEqual([
        list('u2', 'q1', 2000, { queryHash: null, propensity: 1 / 3, share: 0.2 }),
        list('u1', 'q2', 3000),
      ]);
      expect(await store().listSince(0, 1)).toEqual([list('u1', 'q1', 1000)]);
    });
  },
);
