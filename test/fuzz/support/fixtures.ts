import { expect } from 'vitest';
import { simulateClickLog } from '../../../src/click-models/index.js';
import { postJson, request } from '../../support/http.js';
import type { TestApp } from '../../support/test-app.js';
import { syntheticLetor } from '../../learning/support/synthetic-letor.js';
import { sendFeedback, sessionToItems, type FeedbackItem } from '../../learning/support/simulated-feedback.js';
import type { Fixtures } from './routes.js';

const EXP = '/api/nous/ab-testing/experiments';
const MODELS = '/api/nous/learn/models';

async function created(res: Promise<{ statusCode: number; body: any }>): Promise<any> {
  const r = await res;
  expect(r.statusCode, JSON.stringify(r.body).slice(0, 500)).toBeLessThan(300);
  return r.body.data;
}

export async function feedbackFixtures(t: TestApp): Promise<Fixtures> {
  const feedbackIds: string[] = [];
  for (const sessionId of ['s-1', 's-2']) {
    const data = await created(
      postJson(t.app, '/api/cortex/feedback', {
        sessionId,
        feedback: [
          { queryId: 'q-1', metadata: { userAction: 'impression', resultId: 'doc-1', customMetadata: { position: 1 } } },
          {
            queryId: 'q-1',
            rating: 4,
            metadata: { userAction: 'click', resultId: 'doc-1', customMetadata: { position: 1, dwellTime: 45_000 } },
          },
        ],
      }),
    );
    feedbackIds.push(data.feedbackId);
  }
  return { feedbackIds, sessionIds: ['s-1', 's-2'], experimentIds: ['none'], modelIds: ['none'] };
}

/** Experiments in several states, with a few exposures and clicks so results have numbers. */
export async function experimentFixtures(t: TestApp): Promise<Fixtures> {
  const base = await feedbackFixtures(t);
  const make = async (name: string, extra: Record<string, unknown> = {}) =>
    (
      await created(
        postJson(t.app, EXP, {
          name,
          configuration: {
            variants: [
              { id: 'a', weight: 0.5 },
              { id: 'b', weight: 0.5 },
            ],
            targetMetrics: ['ctr', 'mrr', 'mean_rating'],
            ...extra,
          },
        }),
      )
    ).experimentId as string;
  const createdId = await make('fixture created');
  const running = await make('fixture running', { conditions: { country: 'US' } });
  const concluded = await make('fixture concluded');
  for (const idToStart of [running, concluded]) await created(postJson(t.app, `${EXP}/${idToStart}/start`, {}));
  for (const unitId of ['s-1', 's-2', 'u-3', 'u-4']) {
    await created(postJson(t.app, `${EXP}/${running}/assign`, { unitId, attributes: { country: 'US', covariates: { ctr: 0.5 } } }));
    await created(postJson(t.app, `${EXP}/${concluded}/assign`, { unitId }));
  }
  await created(postJson(t.app, `${EXP}/${concluded}/stop`, {}));
  await created(postJson(t.app, `${EXP}/${concluded}/conclude`, { decision: 'ship', winnerVariantId: 'b', force: true }));
  return { ...base, experimentIds: [createdId, running, concluded] };
}

/**
 * A trained click model (judgments), a trained LETOR ranker (rank, export), and untrained ones:
 * the fuzzer then reaches past "no trained version yet" into scoring and exporting.
 */
export async function learningFixtures(t: TestApp): Promise<Fixtures> {
  const sim = simulateClickLog({ model: 'pbm', seed: 5, queries: 3, docsPerQuery: 5, sessions: 300 });
  const items: FeedbackItem[] = [];
  const start = Date.now() - 5 * 86_400_000;
  sim.sessions.forEach((s, i) => items.push(...sessionToItems(s, `search-${i}`, start + i * 60_000)));
  await sendFeedback(t.app, items);
  await created(postJson(t.app, MODELS, { modelId: 'cm', name: 'cm', type: 'click_model', config: { algorithm: 'pbm' } }));
  await created(
    postJson(t.app, MODELS, {
      modelId: 'rk',
      name: 'rk',
      type: 'ranker',
      config: { trainingData: 'dataset', numTrees: 5, numLeaves: 4, minDataInLeaf: 2, seed: 1 },
    }),
  );
  await created(
    request(t.app, {
      method: 'POST',
      url: `${MODELS}/rk/dataset`,
      payload: syntheticLetor({ queries: 20, docsPerQuery: 6, features: 4, seed: 3 }),
      headers: { 'content-type': 'text/plain' },
    }),
  );
  await t.container.learning.services.trainingService.runUntilIdle();
  await created(postJson(t.app, MODELS, { modelId: 'rk2', name: 'rk2', type: 'ranker', config: { trainingData: 'dataset' } }));
  await created(postJson(t.app, MODELS, { modelId: 'ep', name: 'ep', type: 'engagement_predictor', config: { target: 'click' } }));
  for (const modelId of ['cm', 'rk']) {
    const model = (await request(t.app, { method: 'GET', url: `${MODELS}/${modelId}` })).body.data;
    expect(model.activeVersion, `${modelId}: ${JSON.stringify(model)}`).toBe(1);
  }
  return { feedbackIds: ['none'], sessionIds: ['sim'], experimentIds: ['none'], modelIds: ['cm', 'rk', 'rk2', 'ep', 'default'] };
}
