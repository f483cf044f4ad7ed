import { describe, expect, it } from 'vitest';
import { createFakeEvaluationService, createFakeLearningStores } from '../fake-learning.js';
import type { WindowRow } from './evaluation.store.js';

/** Two queries, each shown in two orders over 40 searches; users click rank 1 always and rank 2 half the time. */
function feedback(): (WindowRow & { id: string })[] {
  const rows: (WindowRow & { id: string })[] = [];
  for (let s = 0; s < 40; s += 1) {
    const q = s % 2;
    const list = s % 4 < 2 ? ['a', 'b', 'c'] : ['b', 'a', 'c'];
    list.forEach((doc, i) => {
      const base = { queryId: `s${s}`, sessionId: `u${Math.floor(s / 2)}`, queryHash: `q${q}`, resultId: `${q}${doc}`, position: i + 1 };
      const common = { ...base, dwellTime: null, deviceType: 'mobile', extra: null, eventTime: 1000 + s };
      rows.push({ ...common, id: `${s}-${i}-i`, action: 'impression' });
      if (i === 0 || (i === 1 && s % 3 === 0)) rows.push({ ...common, id: `${s}-${i}-c`, action: 'click', dwellTime: 40_000 });
    });
  }
  return rows;
}

const clock = { now: () => 10_000 };
const rankings = { q0: ['0c', '0b', '0a'], q1: ['1a', '1b', '1c'] };

describe('EvaluationService over the fake stores', () => {
  it('answers a small window at once (201) and stores it', async () => {
    const service = createFakeEvaluationService({ clock, stores: createFakeLearningStores({ evaluationFeedback: feedback }) });
    const answer = await service.create({ candidate: { rankings }, from: 0, to: 5000 }, 'test');
    expect(answer.status).toBe(201);
    if (answer.status !== 201) return;
    expect(answer.view).toMatchObject({
      status: 'done',
      progress: 1,
      searches: 40,
      queries: 2,
      createdBy: 'test',
      baseline: { kind: 'logged' },
    });
    expect((await service.list({ limit: 10 })).items.map((e) => e.evaluationId)).toEqual([answer.view.evaluationId]);
  });

  it('runs a window above the threshold in the background and finishes it', async () => {
    const service = createFakeEvaluationService({
      clock,
      stores: createFakeLearningStores({ evaluationFeedback: feedback }),
      options: { syncLimit: 10 },
    });
    const answer = await service.create({ candidate: { rankings }, from: 0, to: 5000, metrics: ['mrr'] }, 'test');
    expect(answer).toMatchObject({ status: 202, accepted: { status: 'running', progress: 0 } });
    if (answer.status !== 202) return;
    await service.idle();
    expect(await service.get(answer.accepted.evaluationId)).toMatchObject({ status: 'done', progress: 1, metricsRequested: ['mrr'] });
  });

  it('names the field of a window with no searches', async () => {
    const service = createFakeEvaluationService({ clock, stores: createFakeLearningStores({ evaluationFeedback: feedback }) });
    await expect(service.create({ candidate: { rankings }, from: 6000, to: 7000 }, 'test')).rejects.toMatchObject({
      details: [{ path: '/from' }],
    });
  });
});
