import { expect, it } from 'vitest';
import { KyselyEvaluationStore } from '../../src/learning/evaluations/evaluation.kysely-store.js';
import type { EvaluationRecord, EvaluationStore } from '../../src/learning/evaluations/evaluation.store.js';
import { FakeEvaluationStore } from '../../src/learning/evaluations/fake-evaluation.store.js';
import { describeContract } from './support/contract.js';

const record = (id: string, createdAt: number, over: Partial<EvaluationRecord> = {}): EvaluationRecord => ({
  id,
  name: `evaluation ${id}`,
  status: 'running',
  progress: 0,
  request: '{"candidate":{"kind":"logged"}}',
  result: null,
  error: null,
  createdAt,
  finishedAt: null,
  heartbeatAt: createdAt,
  createdBy: 'ann',
  candidateModelId: 'ltr',
  candidateVersion: 2,
  ...over,
});

// The window reads (countSearches, readWindowPage) read feedback the feedback module writes; the
// API tests hold them on every database. This contract holds the evaluation rows.
describeContract<EvaluationStore>(
  'EvaluationStore',
  { kysely: (database) => new KyselyEvaluationStore(database.db), fake: () => new FakeEvaluationStore() },
  (store) => {
    it('keeps a row as inserted; progress and heartbeat move only while it runs; finishing sets the outcome', async () => {
      await store().insert(record('01A', 1000));
      expect(await store().get('01A')).toEqual(record('01A', 1000));
      await store().setProgress('01A', 0.5, 1500);
      expect(await store().get('01A')).toMatchObject({ status: 'running', progress: 0.5, heartbeatAt: 1500 });
      await store().finish('01A', { status: 'done', result: '{"searches":3}' }, 2000);
      expect(await store().get('01A')).toMatchObject({ status: 'done', progress: 1, result: '{"searches":3}', finishedAt: 2000 });
      await store().setProgress('01A', 0.2, 2500);
      expect(await store().get('01A')).toMatchObject({ status: 'done', progress: 1, heartbeatAt: 1500 });
      await store().insert(record('01B', 1100));
      await store().finish('01B', { status: 'failed', error: 'no searches' }, 1200);
      expect(await store().get('01B')).toMatchObject({ status: 'failed', error: 'no searches', result: null, finishedAt: 1200 });
      expect(await store().get('01Z')).toBeUndefined();
    });

    it('lists newest first in keyset pages, filtered by model; the track record sees finished model evaluations oldest first', async () => {
      await store().insert(record('01A', 1000));
      await store().insert(record('01B', 2000, { candidateModelId: 'other' }));
      await store().insert(record('01C', 2000));
      await store().insert(record('01D', 3000, { candidateModelId: null, candidateVersion: null }));
      const first = await store().list({}, 2);
      expect(first.map((r) => r.id)).toEqual(['01D', '01C']);
      const next = await store().list({ after: { createdAt: 2000, id: '01C' } }, 10);
      expect(next.map((r) => r.id)).toEqual(['01B', '01A']);
      expect((await store().list({ modelId: 'ltr' }, 10)).map((r) => r.id)).toEqual(['01C', '01A']);
      for (const id of ['01A', '01C', '01D']) await store().finish(id, { status: 'done', result: '{}' }, 4000);
      expect((await store().listDoneWithModel()).map((r) => r.id)).toEqual(['01A', '01C']);
    });
  },
);
