import { describe, expect, it } from 'vitest';
import { createFakeEvaluationService, createFakeLearningStores } from '../fake-learning.js';
import { NO_ONLINE_OUTCOMES } from '../ports/online-outcomes.js';
import type { CandidateScoring } from '../ports/candidate-scoring.js';
import { DEFAULT_EVALUATION_OPTIONS, EvaluationService } from './evaluation.service.js';
import type { WindowRow } from './evaluation.store.js';
import { FakeEvaluationStore } from './fake-evaluation.store.js';

/** Two queries, each shown in two orders over 40 searches; users click rank 1 always and rank 2 half the time. */
function feedback(searches = 40): (WindowRow & { id: string })[] {
  const rows: (WindowRow & { id: string })[] = [];
  for (let s = 0; s < searches; s += 1) {
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

  it('reads a running evaluation whose heartbeat stopped two minutes ago as failed, and one still beating as running', async () => {
    const store = new FakeEvaluationStore(feedback);
    let now = 10_000;
    const row = (id: string, heartbeatAt: number) => ({
      id,
      name: id,
      status: 'running' as const,
      progress: 0.4,
      request: JSON.stringify({
        candidate: { kind: 'logged' },
        baseline: { kind: 'logged' },
        window: { start: 0, end: 5000 },
        estimator: 'snips',
        depth: 10,
        metrics: ['mrr'],
      }),
      result: null,
      error: null,
      createdAt: 0,
      finishedAt: null,
      heartbeatAt,
      createdBy: 'test',
      candidateModelId: null,
      candidateVersion: null,
    });
    await store.insert(row('left', 0));
    await store.insert(row('alive', 100_000));
    const reader = new EvaluationService({
      store,
      ports: NO_PORTS,
      outcomes: NO_ONLINE_OUTCOMES,
      clock: { now: () => now },
      options: DEFAULT_EVALUATION_OPTIONS,
    });
    now = 200_000;
    expect(await reader.get('left')).toMatchObject({ status: 'failed', error: expect.stringContaining('the service running it stopped') });
    expect(await reader.get('alive')).toMatchObject({ status: 'running', progress: 0.4 });
  });

  it('warns when the candidate version learned from clicks inside the window, and says where an honest window starts', async () => {
    const ports: CandidateScoring = {
      ...NO_PORTS,
      checkRankable: async () => ({ ok: true, activeVersion: 3 }),
      trainingWindow: async (modelId, version) => (modelId === 'ltr' && version === 3 ? { start: 0, end: 1030, readBy: 1020 } : null),
      // Scores that keep the logged order.
      scoreVersion: async (_m, _v, input) => input.results.map((_, i) => -i),
    };
    const store = new FakeEvaluationStore(feedback);
    const service = new EvaluationService({
      store,
      ports,
      outcomes: NO_ONLINE_OUTCOMES,
      clock,
      options: { ...DEFAULT_EVALUATION_OPTIONS, thread: false },
    });
    const overlapping = await service.create({ candidate: { modelId: 'ltr' }, from: 0, to: 5000, metrics: ['mrr'] }, 'test');
    if (overlapping.status !== 201) throw new Error('expected 201');
    // Searches 0–19 (event times 1000–1019) are inside the training window: half of the 40.
    expect(overlapping.view.warnings).toEqual([
      expect.stringMatching(
        /^v3 of ltr learned from .* holds 50 % of this window's searches.*starts at 1970-01-01T00:00:01\.020Z or later\.$/,
      ),
    ]);
    const after = await service.create({ candidate: { modelId: 'ltr' }, from: 1020, to: 5000, metrics: ['mrr'] }, 'test');
    if (after.status !== 201) throw new Error('expected 201');
    expect(after.view.warnings).toEqual([]);
    // Stamped inside the training window but received after the run (a client's late batch, the demo's
    // compressed clock): the version never read them.
    const late = () => feedback().map((r) => ({ ...r, receivedAt: r.eventTime + 10_000 }));
    const lateService = new EvaluationService({
      store: new FakeEvaluationStore(late),
      ports,
      outcomes: NO_ONLINE_OUTCOMES,
      clock,
      options: { ...DEFAULT_EVALUATION_OPTIONS, thread: false },
    });
    const unseen = await lateService.create({ candidate: { modelId: 'ltr' }, from: 0, to: 5000, metrics: ['mrr'] }, 'test');
    if (unseen.status !== 201) throw new Error('expected 201');
    expect(unseen.view.warnings).toEqual([]);
  });

  it('says "under 1 %" when a handful of the window\'s searches fed the training, not a "0 %" that reads as none', async () => {
    const ports: CandidateScoring = {
      ...NO_PORTS,
      checkRankable: async () => ({ ok: true, activeVersion: 1 }),
      // Only search 0 (event time 1000) is inside: 1 of 200.
      trainingWindow: async () => ({ start: 0, end: 1001, readBy: 1001 }),
      scoreVersion: async (_m, _v, input) => input.results.map((_, i) => -i),
    };
    const service = new EvaluationService({
      store: new FakeEvaluationStore(() => feedback(200)),
      ports,
      outcomes: NO_ONLINE_OUTCOMES,
      clock,
      options: { ...DEFAULT_EVALUATION_OPTIONS, thread: false },
    });
    const answer = await service.create({ candidate: { modelId: 'ltr' }, from: 0, to: 5000, metrics: ['mrr'] }, 'test');
    if (answer.status !== 201) throw new Error('expected 201');
    expect(answer.view.warnings).toEqual([expect.stringContaining('which holds under 1 % of this window')]);
  });
});

const NO_PORTS: CandidateScoring = {
  checkRankable: async () => ({ ok: false, field: 'modelId', message: 'no models here' }),
  aliasTarget: async () => undefined,
  trainingWindow: async () => null,
  scoreVersion: async () => [],
};
