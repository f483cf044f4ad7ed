import { beforeAll, expect, it } from 'vitest';
import { simulateClickLog } from '../../src/click-models/index.js';
import { mulberry32 } from '../../src/random/index.js';
import { expectError, getJson, postJson } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { sendFeedback, sessionToItems, type FeedbackItem } from './support/simulated-feedback.js';

const URL = '/api/nous/learn/models';
const HOUR = 3_600_000;
const sim = simulateClickLog({ model: 'pbm', seed: 5, queries: 6, docsPerQuery: 8, sessions: 1500 });
const devices = ['mobile', 'desktop', 'tablet'];

/** Impressions and clicks with context, client features and dwell times (every third click satisfied). */
function feedbackItems(start: number): FeedbackItem[] {
  const rnd = mulberry32(9);
  const items: FeedbackItem[] = [];
  sim.sessions.forEach((s, i) => {
    const extra = {
      deviceType: devices[i % 3],
      searchType: 'keyword',
      language: i % 2 ? 'en' : 'de',
      viewport: { width: 400 + (i % 3) * 400, height: 800 },
    };
    for (const item of sessionToItems(s, `q-${i}`, start + i * 60_000, { extra })) {
      const custom = item.metadata.customMetadata as Record<string, unknown>;
      const doc = Number(String(item.metadata.resultId).replace(/.*-d/, ''));
      custom.features = { freshness: (doc % 4) / 4, price: 10 + doc };
      custom.category = doc % 2 ? 'shoes' : 'socks';
      if (item.metadata.userAction === 'click') custom.dwellTime = rnd() < 0.34 ? 45_000 : 5_000;
      items.push(item);
    }
  });
  return items;
}

describeOnEveryDatabase('models trained from feedback', (kind) => {
  const clock = new TestClock();
  const t = useTestApp(kind, { clock });
  beforeAll(async () => {
    await sendFeedback(t.app, feedbackItems(clock.now() - 1500 * 60_000 - HOUR));
  }, 120_000);

  it('a ranker labelled by click-model judgments with behavioural and client features', async () => {
    await postJson(t.app, URL, { modelId: 'clicks', name: 'clicks', type: 'click_model', config: { algorithm: 'pbm' } });
    await t.container.learning.services.trainingService.runUntilIdle();
    const res = await postJson(t.app, URL, {
      modelId: 'fb-ranker',
      name: 'fb ranker',
      type: 'ranker',
      config: { clickModel: 'clicks', numTrees: 30, minDataInLeaf: 2, minImpressions: 20, heldOutFraction: 0.34 },
    });
    expect(res.statusCode).toBe(201);
    await t.container.learning.services.trainingService.runUntilIdle();
    const model = (await getJson(t.app, `${URL}/fb-ranker`)).body.data;
    expect(model.status, model.error).toBe('ready');
    expect(model.metrics.source).toBe('feedback');
    // With client features, impressions is the only behaviour feature (behaviour-features.ts, feedbackBehaviour).
    expect(model.metrics.featureNames).toEqual(['impressions', 'freshness', 'price']);
    expect(model.metrics.counts.labelsFromJudgments).toBe(48);
    expect(model.metrics.ndcg['10']).toBeGreaterThanOrEqual(model.metrics.baseline.random.ndcg['10']);
    const q = sim.sessions[0]!.queryHash;
    const ranked = await postJson(t.app, `${URL}/fb-ranker/rank`, {
      queryHash: q,
      results: sim.sessions[0]!.resultIds.map((resultId) => ({ resultId })),
    });
    expect(ranked.statusCode).toBe(200);
    expect(ranked.body.data).toMatchObject({ modelId: 'fb-ranker', version: 1, scoreType: 'ranker-margin' });
  });

  it('a ranker whose click model has no version yet fails with a readable error', async () => {
    // A one-minute window holds no feedback: without retrainEvery the click model fails, so it never gets a version.
    await postJson(t.app, URL, { modelId: 'empty', name: 'empty', type: 'click_model', config: { window: '1m' } });
    await postJson(t.app, URL, { modelId: 'orphan', name: 'orphan', type: 'ranker', config: { clickModel: 'empty' } });
    await t.container.learning.services.trainingService.runUntilIdle();
    const empty = (await getJson(t.app, `${URL}/empty`)).body.data;
    expect(empty).toMatchObject({ status: 'failed', activeVersion: null, lastTraining: { outcome: 'failed' } });
    expect(empty.error).toMatch(/no searches/);
    const orphan = (await getJson(t.app, `${URL}/orphan`)).body.data;
    expect(orphan.status).toBe('failed');
    expect(orphan.error).toBe('click model empty has no trained version yet');
    expectError(await postJson(t.app, `${URL}/orphan/rank`, { results: [{ resultId: 'a' }] }), 409, 'CONFLICT');
  });

  it('an engagement predictor: AUC, log-loss, calibration error and base rate on the latest slice', async () => {
    const res = await postJson(t.app, URL, {
      modelId: 'engage',
      name: 'engage',
      type: 'engagement_predictor',
      config: { target: 'click', numTrees: 40 },
    });
    expect(res.statusCode).toBe(201);
    await t.container.learning.services.trainingService.runUntilIdle();
    const model = (await getJson(t.app, `${URL}/engage`)).body.data;
    expect(model.status, model.error).toBe('ready');
    const m = model.metrics;
    expect(m.auc).toBeGreaterThan(0.6);
    expect(m.logLoss).toBeGreaterThan(0);
    expect(m.calibrationError).toBeGreaterThanOrEqual(0);
    expect(m.baseRate).toBeGreaterThan(0);
    expect(m.baseRate).toBeLessThan(1);
    expect(m.featureImportance[0].feature).toBe('position');
    expect(m.counts.examples).toBe(12_000);
    const ranked = await postJson(t.app, `${URL}/engage/rank?explain=true`, {
      context: { deviceType: 'mobile', language: 'en', hour: 10, viewport: { width: 400, height: 800 } },
      results: [
        { resultId: 'top', position: 1 },
        { resultId: 'deep', position: 10 },
      ],
    });
    expect(ranked.body.data.scoreType).toBe('probability');
    expect(ranked.body.data.results[0].resultId).toBe('top');
    for (const r of ranked.body.data.results) expect(r.score > 0 && r.score < 1).toBe(true);
  });

  it('a satisfied-click predictor has a lower base rate than the click predictor', async () => {
    await postJson(t.app, URL, {
      modelId: 'satisfied',
      name: 'satisfied',
      type: 'engagement_predictor',
      config: { target: 'satisfied_click', numTrees: 20 },
    });
    await t.container.learning.services.trainingService.runUntilIdle();
    const clicks = (await getJson(t.app, `${URL}/engage`)).body.data.metrics.baseRate;
    const satisfied = (await getJson(t.app, `${URL}/satisfied`)).body.data.metrics;
    expect(satisfied.baseRate).toBeLessThan(clicks);
  });

  it('a click model of searches logged without impressions infers them (cascade) and says so', async () => {
    const items = sessionToItems(
      { queryHash: 'clicks-only', resultIds: ['a', 'b', 'c'], clicks: [false, false, true] },
      'co-1',
      clock.now() - HOUR,
      { impressions: false },
    );
    await sendFeedback(t.app, items, 'co');
    await postJson(t.app, URL, {
      modelId: 'cascade',
      name: 'cascade',
      type: 'click_model',
      config: { algorithm: 'cascade', heldOutFraction: 0.05 },
    });
    await t.container.learning.services.trainingService.runUntilIdle();
    const m = (await getJson(t.app, `${URL}/cascade`)).body.data.metrics;
    expect(m.counts.inferredSearches).toBe(1);
    expect(m.counts.impressionsInferred).toBe(3);
    expect(m.impressionsInferred).toBeCloseTo(3 / (12_000 + 3), 9);
    const csv = (await t.app.inject({ method: 'GET', url: `${URL}/cascade/judgments?format=csv&minImpressions=1` })).body;
    expect(csv).not.toContain('rank:');
  });
});
