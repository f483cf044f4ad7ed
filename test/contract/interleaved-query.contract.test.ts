import { expect, it } from 'vitest';
import { FakeInterleavedQueryStore } from '../../src/experiments/model/fake-interleaved-query.store.js';
import { KyselyInterleavedQueryStore } from '../../src/experiments/model/interleaved-query.kysely-store.js';
import type { InterleavedQueryRecord, InterleavedQueryStore } from '../../src/experiments/model/interleaved-query.store.js';
import { describeContract } from './support/contract.js';

const row = (unitId: string, queryId: string, over: Partial<InterleavedQueryRecord> = {}): InterleavedQueryRecord => ({
  experimentId: 'e1',
  phase: 0,
  unitId,
  queryId,
  recordedAt: 1000,
  teams: ['a', 'b'],
  depth: 10,
  results: [
    ['r1', 0],
    ['r2', 1],
  ],
  credit: null,
  ...over,
});

describeContract<InterleavedQueryStore>(
  'InterleavedQueryStore',
  { kysely: (database) => new KyselyInterleavedQueryStore(database.db), fake: () => new FakeInterleavedQueryStore() },
  (store) => {
    it('records a list once per (experiment, phase, unit, query): a retried call keeps the first', async () => {
      await store().recordMany([row('u1', 'q1')]);
      await store().recordMany([row('u1', 'q1', { recordedAt: 2000, results: [['r9', 0]] })]);
      await store().recordMany([row('u1', 'q1', { phase: 1 })]);
      expect(await store().listForPhase('e1', 0)).toEqual([row('u1', 'q1')]);
      expect(await store().listForPhase('e1', 1)).toEqual([row('u1', 'q1', { phase: 1 })]);
    });

    it('records a group in one call: each list once, the first of a repeated key kept, an already stored one untouched', async () => {
      await store().recordMany([row('u0', 'q0')]);
      await store().recordMany([
        row('u1', 'q1'),
        row('u0', 'q0', { recordedAt: 5 }),
        row('u2', 'q1'),
        row('u1', 'q1', { recordedAt: 2000, results: [['r9', 0]] }),
      ]);
      await store().recordMany([]);
      expect(await store().listForPhase('e1', 0)).toEqual([row('u0', 'q0'), row('u1', 'q1'), row('u2', 'q1')]);
    });

    it('lists one phase of one experiment, ordered by unit and query', async () => {
      await store().recordMany([row('u2', 'q1'), row('u1', 'q2')]);
      await store().recordMany([row('u1', 'q1'), row('u1', 'q1', { experimentId: 'e2' })]);
      expect((await store().listForPhase('e1', 0)).map((r) => [r.unitId, r.queryId])).toEqual([
        ['u1', 'q1'],
        ['u1', 'q2'],
        ['u2', 'q1'],
      ]);
      expect(await store().listForPhase('e1', 1)).toEqual([]);
    });
  },
);
