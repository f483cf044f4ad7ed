import { beforeAll, expect, it } from 'vitest';
import { simulateClickLog } from '../../src/click-models/index.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { sendFeedback, sessionToItems, type FeedbackItem } from '../learning/support/simulated-feedback.js';
import { syntheticLetor } from '../learning/support/synthetic-letor.js';
import { trainRanker } from '../experiments/support/rankers.js';

const MODELS = '/api/nous/learn/models';
const sideBySide = (query: string, params: string) => `/api/cortex/analytics/queries/${query}/side-by-side?model=clicks&${params}`;
const sim = simulateClickLog({ model: 'pbm', seed: 11, queries: 4, docsPerQuery: 12, sessions: 900 });
const QUERY = 'q0';

/** The simulated log with client features on every item; a fifth query logs the dataset ranker's features 1–4. */
function feedbackItems(start: number): FeedbackItem[] {
  const items: FeedbackItem[] = [];
  sim.sessions.forEach((s, i) => {
    for (const item of sessionToItems(s, `q-${i}`, start + i * 60_000)) {
      const doc = Number(String(item.metadata.resultId).replace(/.*-d/, ''));
      (item.metadata.customMetadata as Record<string, unknown>).features = { freshness: (doc % 5) / 5, price: 20 - doc };
      items.push(item);
    }
  });
  for (let d = 0; d < 6; d += 1) {
    const features = { 1: d / 6, 2: (d * 7) % 5, 3: 0.5, 4: d % 2 };
    items.push({
      queryId: `letor-${d}`,
      metadata: {
        resultId: `letor-d${d}`,
        queryHash: 'letor',
        userAction: 'impression',
        timestamp: new Date(start + d * 1000).toISOString(),
        customMetadata: { position: d + 1, features },
      },
    });
  }
  return items;
}

type Side = { results: { resultId: string; rank: number; score: number | null; movement: { kind: string; by: number } }[] };
const ids = (side: Side) => side.results.map((r) => r.resultId);

describeOnEveryDatabase('query side-by-side', (kind) => {
  const clock = new TestClock();
  const t = useTestApp(kind, { clock });
  beforeAll(async () => {
    await sendFeedback(t.app, feedbackItems(clock.now() - 900 * 60_000 - 3_600_000));
    await t.container.analytics.services.analyticsService.catchUp();
    await postJson(t.app, MODELS, { modelId: 'clicks', name: 'clicks', type: 'click_model', config: { algorithm: 'pbm' } });
    await t.container.learning.services.trainingService.runUntilIdle();
    const created = await postJson(t.app, MODELS, {
      modelId: 'fb-ranker',
      name: 'fb ranker',
      type: 'ranker',
      config: { clickModel: 'clicks', numTrees: 20, minDataInLeaf: 2, minImpressions: 10, seed: 3 },
    });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    await t.container.learning.services.trainingService.runUntilIdle();
    expect((await getJson(t.app, `${MODELS}/fb-ranker`)).body.data.status).toBe('ready');
    await trainRanker(t, 'letor', syntheticLetor({ queries: 30, docsPerQuery: 8, features: 4, seed: 5 }), { numTrees: 8, numLeaves: 4 });
  }, 180_000);

  it('the engine order is the query page’s; a model side is what the model’s rank endpoint serves for the same results', async () => {
    const res = await getJson(t.app, sideBySide(QUERY, 'left=original&right=model:fb-ranker&k=5'));
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    const view = res.body.data;
    const detail = (await getJson(t.app, `/api/cortex/analytics/queries/${QUERY}?model=clicks`)).body.data;
    // Candidates: every logged result in the engine's order, with the logged features the ranker reads.
    expect(view.candidates.map((c: { resultId: string }) => c.resultId)).toEqual(
      detail.results.map((r: { resultId: string }) => r.resultId),
    );
    expect(view.candidates).toHaveLength(12);
    const first = view.candidates.find((c: { resultId: string }) => c.resultId === `${QUERY}-d3`);
    expect(first.features).toEqual({ freshness: 0.6, price: 17 });
    expect(view.figures).toEqual(detail.figures);
    expect(view.relevanceModel).toMatchObject({ modelId: 'clicks', version: 1 });

    expect(view.left.served).toEqual({ source: 'original', alias: null, modelId: null, version: null, scoreType: null });
    expect(ids(view.left)).toEqual(view.candidates.slice(0, 5).map((c: { resultId: string }) => c.resultId));
    expect(view.left.results.every((r: { score: unknown }) => r.score === null)).toBe(true);

    const served = await postJson(t.app, `${MODELS}/fb-ranker/rank`, { queryHash: QUERY, results: view.candidates });
    expect(served.statusCode).toBe(200);
    expect(ids(view.right)).toEqual(served.body.data.results.slice(0, 5).map((r: { resultId: string }) => r.resultId));
    expect(view.right.results.map((r: { score: number }) => r.score)).toEqual(
      served.body.data.results.slice(0, 5).map((r: { score: number }) => r.score),
    );
    expect(view.right.served).toEqual({ source: 'model', alias: null, modelId: 'fb-ranker', version: 1, scoreType: 'ranker-margin' });
    // The ranker learned the click model's relevance, so it differs from the engine's order somewhere.
    expect(ids(view.right)).not.toEqual(ids(view.left));

    // Relevance and counts are the query page's; movement reads each side against the other's full order.
    const byId = new Map<string, { relevance: number | null; impressions: number }>(
      detail.results.map((r: { resultId: string; relevance: number | null; impressions: number }) => [r.resultId, r]),
    );
    const fullRight = served.body.data.results.map((r: { resultId: string }) => r.resultId);
    for (const r of view.right.results) {
      expect(r).toMatchObject({ relevance: byId.get(r.resultId)!.relevance, impressions: byId.get(r.resultId)!.impressions });
      const before = view.candidates.findIndex((c: { resultId: string }) => c.resultId === r.resultId) + 1;
      expect(r.originalPosition).toBe(before);
      const expected = before > 5 ? 'new' : before === r.rank ? 'same' : before > r.rank ? 'up' : 'down';
      expect(r.movement.kind).toBe(expected);
      if (expected === 'up' || expected === 'down') expect(r.movement.by).toBe(Math.abs(before - r.rank));
    }
    for (const r of view.left.results) expect(r.movement.otherRank).toBe(fullRight.indexOf(r.resultId) + 1);
    const inBoth = ids(view.right).filter((id) => ids(view.left).includes(id)).length;
    expect(view.overlap).toBe(inBoth);
    const dcg = view.right.results.reduce(
      (s: number, r: { relevance: number | null }, i: number) => s + (r.relevance ?? 0) / Math.log2(i + 2),
      0,
    );
    expect(view.right.summary.relevanceDcg).toBeCloseTo(dcg, 10);
  });

  it('an alias side is what POST /api/nous/rank serves through it; a fixed version what that version serves', async () => {
    expectError(await getJson(t.app, sideBySide(QUERY, 'right=alias:production')), 404, 'NOT_FOUND');
    const moved = await request(t.app, {
      method: 'PUT',
      url: '/api/nous/learn/aliases/production',
      payload: { modelId: 'fb-ranker' },
      headers: { 'content-type': 'application/json' },
    });
    expect(moved.statusCode).toBe(200);
    const view = (await getJson(t.app, sideBySide(QUERY, 'right=alias:production'))).body.data;
    expect(view.right.served).toMatchObject({ source: 'alias', alias: 'production', modelId: 'fb-ranker', version: 1 });
    const rank = await postJson(t.app, '/api/nous/rank', { unitId: 'u-1', queryId: 'sbs-1', queryHash: QUERY, results: view.candidates });
    expect(rank.body.data.served).toMatchObject({ source: 'alias', modelId: 'fb-ranker', version: 1 });
    expect(ids(view.right)).toEqual(rank.body.data.results.slice(0, 10).map((r: { resultId: string }) => r.resultId));

    const pinned = (await getJson(t.app, sideBySide(QUERY, 'left=model:fb-ranker@1&right=alias:production&k=3'))).body.data;
    expect(pinned.left.served).toMatchObject({ source: 'model', modelId: 'fb-ranker', version: 1 });
    expect(ids(pinned.left)).toEqual(ids(view.right).slice(0, 3));
    expect(pinned.left.results.map((r: { movement: { kind: string } }) => r.movement.kind)).toEqual(['same', 'same', 'same']);
    expect(pinned.overlap).toBe(3);

    // Cleared (rolled back to the engine's order): the alias side is the engine's order, as rank then serves.
    const cleared = await request(t.app, { method: 'DELETE', url: '/api/nous/learn/aliases/production?reason=rollback' });
    expect(cleared.statusCode).toBe(200);
    const rolledBack = (await getJson(t.app, sideBySide(QUERY, 'right=alias:production'))).body.data;
    expect(rolledBack.right.served).toEqual({ source: 'original', alias: 'production', modelId: null, version: null, scoreType: null });
    const original = await postJson(t.app, '/api/nous/rank', {
      unitId: 'u-1',
      queryId: 'sbs-2',
      queryHash: QUERY,
      results: view.candidates,
    });
    expect(original.body.data.served).toEqual({ source: 'original' });
    expect(ids(rolledBack.right)).toEqual(original.body.data.results.slice(0, 10).map((r: { resultId: string }) => r.resultId));
    expect(ids(rolledBack.right)).toEqual(ids(rolledBack.left));
    expect(rolledBack.right.results.map((r: { movement: { kind: string } }) => r.movement.kind)).toEqual(Array(10).fill('same'));
  });

  it('a dataset ranker ranks by logged features, and a query whose feedback lacks them is a 409 naming them', async () => {
    const view = (await getJson(t.app, sideBySide('letor', 'right=model:letor'))).body.data;
    expect(view.candidates.map((c: { resultId: string }) => c.resultId)).toEqual([
      'letor-d0',
      'letor-d1',
      'letor-d2',
      'letor-d3',
      'letor-d4',
      'letor-d5',
    ]);
    expect(view.candidates[2].features).toEqual({ 1: 2 / 6, 2: 4, 3: 0.5, 4: 0 });
    const served = await postJson(t.app, `${MODELS}/letor/rank`, { results: view.candidates });
    expect(ids(view.right)).toEqual(served.body.data.results.map((r: { resultId: string }) => r.resultId));

    const missing = await getJson(t.app, sideBySide(QUERY, 'right=model:letor'));
    expectError(missing, 409, 'CONFLICT', '/right');
    expect(missing.body.error.message).toMatch(/no 1, 2, 3, 4 for 12 of the query's 12 results/);
  });

  it('refuses bad input naming the field, and answers 404 for an unknown query, model, version or alias', async () => {
    expectError(await getJson(t.app, `/api/cortex/analytics/queries/${QUERY}/side-by-side`), 400, 'VALIDATION_ERROR', '/right');
    expectError(await getJson(t.app, sideBySide(QUERY, 'right=engine')), 400, 'VALIDATION_ERROR', '/right');
    expectError(await getJson(t.app, sideBySide(QUERY, 'right=model:fb-ranker@0')), 400, 'VALIDATION_ERROR', '/right');
    expectError(await getJson(t.app, sideBySide(QUERY, 'left=alias:Prod&right=original')), 400, 'VALIDATION_ERROR', '/left');
    expectError(await getJson(t.app, sideBySide(QUERY, 'right=original&k=0')), 400, 'VALIDATION_ERROR', '/k');
    expectError(await getJson(t.app, sideBySide(QUERY, 'right=original&k=51')), 400, 'VALIDATION_ERROR', '/k');
    expectError(await getJson(t.app, sideBySide(QUERY, 'right=original&dimension=deviceType')), 400, 'VALIDATION_ERROR', '/value');
    // A click model orders by relevance but is no ranker: the view compares what an alias could serve.
    expectError(await getJson(t.app, sideBySide(QUERY, 'right=model:clicks')), 400, 'VALIDATION_ERROR', '/right');

    expectError(await getJson(t.app, sideBySide(QUERY, 'right=model:nope')), 404, 'NOT_FOUND');
    expectError(await getJson(t.app, sideBySide(QUERY, 'right=model:fb-ranker@9')), 404, 'NOT_FOUND');
    expectError(await getJson(t.app, sideBySide(QUERY, 'right=alias:staging')), 404, 'NOT_FOUND');
    expectError(await getJson(t.app, sideBySide('no-such-query', 'right=original')), 404, 'NOT_FOUND');
  });
});
