import { describe, expect, it } from 'vitest';
import { createFakeDatasetService, createFakeLearningStores } from '../fake-learning.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

async function* chunks(...parts: string[]) {
  for (const part of parts) yield Buffer.from(part, 'utf8');
}

function setup(maxBytes?: number) {
  const stores = createFakeLearningStores();
  const newJob = (modelId: string, reason: 'dataset') => ({
    id: `job-${modelId}`,
    modelId,
    reason,
    force: false,
    runAfter: NOW,
    requestedAt: NOW,
  });
  const service = createFakeDatasetService({ clock: { now: () => NOW }, training: { newJob }, maxBytes, stores });
  const model = (id: string, config: Record<string, unknown>, type: 'ranker' | 'click_model' = 'ranker') =>
    stores.models.insert({ id, name: id, type, status: 'pending', config, metrics: {}, error: null, createdAt: NOW, updatedAt: NOW });
  return { data: stores.data, service, model };
}

describe('DatasetService (fake stores)', () => {
  it('parses the upload as it streams, keeps it and queues training', async () => {
    const t = setup();
    await t.model('r', { trainingData: 'dataset' });
    const view = await t.service.upload('r', chunks('2 qid:1 1:0.5 2:1\n0 qid:1 1:0', '.1\n1 qid:2 2:3\n'));
    expect(view).toMatchObject({ modelId: 'r', rows: 3, queries: 2, features: 2, training: { jobId: 'job-r', reason: 'dataset' } });
    expect(t.data.datasets.get('r')!.content).toBe('2 qid:1 1:0.5 2:1\n0 qid:1 1:0.1\n1 qid:2 2:3\n');
  });

  it('names the bad line, refuses one query, a feedback ranker, a click model and an oversized body', async () => {
    const t = setup(40);
    await t.model('r', { trainingData: 'dataset' });
    await t.model('f', {});
    await t.model('c', {}, 'click_model');
    await expect(t.service.upload('r', chunks('1 qid:1 1:1\nnot a line\n'))).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: '/line/2' }],
    });
    await expect(t.service.upload('r', chunks('1 qid:1 1:1\n0 qid:1 1:2\n'))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(t.service.upload('f', chunks('1 qid:1 1:1\n'))).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(t.service.upload('c', chunks('1 qid:1 1:1\n'))).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(t.service.upload('r', chunks('1 qid:1 1:1\n'.repeat(5)))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(t.data.datasets.size).toBe(0);
  });
});
