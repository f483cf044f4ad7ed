import { mulberry32 } from '../../../src/random/index.js';
import { syntheticLetor } from '../../learning/support/synthetic-letor.js';
import type { TestClock } from '../../support/test-clock.js';
import type { DashboardServer } from './dashboard-server.js';

const DAY = 86_400_000;
const EXP = '/api/nous/ab-testing/experiments';
const MODELS = '/api/nous/learn/models';

export interface Seeded {
  running: { experimentId: string; name: string };
  created: { experimentId: string; name: string };
  erasable: { sessionId: string; items: number };
}

function ok<T>(res: { status: number; body: any }, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body.data as T;
}

/**
 * Everything the dashboard shows, made through the HTTP API: a running A/B test with three days
 * of sessions (the treatment clicks more, so results are significant), an experiment still to
 * start, a click model trained twice from that feedback, a ranker trained from an uploaded
 * LETOR file, and one session to erase. Seeded, so every run shows the same numbers.
 */
export async function seed(server: DashboardServer, clock: TestClock, sessionsPerDay = 150): Promise<Seeded> {
  const { api } = server;
  const random = mulberry32(20_261_122);
  const running = ok<{ experimentId: string; name: string }>(
    await api('POST', EXP, {
      name: 'ranking-v2 vs engine order',
      description: 'Does the learned ranker get more clicks than the search engine’s own order?',
      configuration: {
        variants: [
          { id: 'control', name: 'Engine order', config: { ranker: 'engine' } },
          { id: 'treatment', name: 'Ranking v2', config: { ranker: 'ltr-v2' } },
        ],
        targetMetrics: ['ctr', 'mrr'],
        // A fixed hash seed (not the random experiment id): the same sessions land in the same arms every run.
        seed: 'dashboard-e2e',
      },
    }),
    201,
    'create running experiment',
  );
  ok(await api('POST', `${EXP}/${running.experimentId}/start`), 200, 'start');
  const start = clock.now();
  const queries = ['running shoes', 'trail shoes', 'rain jacket', 'tent', 'headlamp'];
  for (let day = 0; day < 3; day += 1) {
    clock.set(start + day * DAY + 60_000);
    for (let i = 0; i < sessionsPerDay; i += 1) {
      const unitId = `s-${day}-${i}`;
      const assigned = ok<{ variantId: string | null }>(
        await api('POST', `${EXP}/${running.experimentId}/assign`, { unitId }),
        200,
        'assign',
      );
      const better = assigned.variantId === 'treatment';
      const queryHash = queries[Math.floor(random() * queries.length)]!;
      const queryId = `${unitId}-q1`;
      const feedback: unknown[] = [];
      // Position-biased clicks: rank r is looked at with probability 1/r^0.7; the treatment puts better results on top.
      let clicked = false;
      for (let rank = 1; rank <= 5; rank += 1) {
        const resultId = `${queryHash.replace(' ', '-')}-doc-${better ? rank : 6 - rank}`;
        const meta = { resultId, queryHash, customMetadata: { position: rank } };
        feedback.push({ queryId, metadata: { ...meta, userAction: 'impression' } });
        // Attractiveness: the treatment's top results are better; the engine's are middling everywhere.
        const attractive = better ? 0.7 - 0.1 * rank : 0.35;
        if (!clicked && random() < attractive / rank ** 0.7) {
          clicked = true;
          feedback.push({ queryId, metadata: { ...meta, userAction: 'click', customMetadata: { position: rank, dwellTime: 20_000 } } });
        }
      }
      ok(await api('POST', '/api/cortex/feedback', { sessionId: unitId, feedback }), 201, 'feedback');
    }
    if (day === 0) {
      // A click model trained on the first day's feedback; retrained on all three days below.
      const model = { modelId: 'pbm-e2e', name: 'Position-based click model', type: 'click_model', config: { algorithm: 'pbm' } };
      ok(await api('POST', MODELS, model), 201, 'click model');
      await server.container.learning.services.trainingService.runUntilIdle();
    }
  }
  const created = ok<{ experimentId: string; name: string }>(
    await api('POST', EXP, {
      name: 'grid vs list layout',
      configuration: {
        variants: [
          { id: 'list', weight: 0.5 },
          { id: 'grid', weight: 0.5 },
        ],
        trafficAllocation: 0.5,
        targetMetrics: ['ctr'],
      },
    }),
    201,
    'create second experiment',
  );
  const erasable = { sessionId: 'erase-me', items: 3 };
  ok(
    await api('POST', '/api/cortex/feedback', {
      sessionId: erasable.sessionId,
      feedback: [
        {
          queryId: 'erase-q',
          metadata: { userAction: 'impression', resultId: 'doc-9', queryHash: 'tent', customMetadata: { position: 1 } },
        },
        { queryId: 'erase-q', metadata: { userAction: 'click', resultId: 'doc-9', queryHash: 'tent', customMetadata: { position: 1 } } },
        { queryId: 'erase-q', rating: 4 },
      ],
    }),
    201,
    'feedback to erase',
  );

  ok(await api('POST', `${MODELS}/pbm-e2e/train`, { force: true }), 202, 'retrain');
  await server.container.learning.services.trainingService.runUntilIdle();
  ok(
    await api('POST', MODELS, {
      modelId: 'ltr-e2e',
      name: 'LambdaMART from judgments',
      type: 'ranker',
      config: { trainingData: 'dataset', numTrees: 40, learningRate: 0.1, numLeaves: 15, minDataInLeaf: 5, seed: 7 },
    }),
    201,
    'ranker',
  );
  ok(
    await api('POST', `${MODELS}/ltr-e2e/dataset`, syntheticLetor({ queries: 60, docsPerQuery: 15, features: 6, seed: 5 })),
    201,
    'upload',
  );
  await server.container.learning.services.trainingService.runUntilIdle();
  return { running, created, erasable };
}
