import { beforeAll, expect, it } from 'vitest';
import { parseXgboostJson } from '../../src/ranker/index.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp, type TestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { simulateClicks, writeClicks } from './support/simulated-clicks.js';

const URL = '/api/nous/learn/models';
const DAY = 86_400_000;
const DEPTH = 8;
const TREES = { numTrees: 40, minDataInLeaf: 5, seed: 3 };

interface PositionRow {
  position: number;
  clicked: number;
  unclicked: number | null;
}

async function trainModel(t: TestApp, modelId: string, config: Record<string, unknown>) {
  const res = await postJson(t.app, URL, { modelId, name: modelId, type: 'ranker', config });
  expect(res.statusCode, JSON.stringify(res.body)).toBe(201);
  await t.container.learning.services.trainingService.runUntilIdle();
  const model = (await getJson(t.app, `${URL}/${modelId}`)).body.data;
  console.log(
    modelId,
    JSON.stringify({
      training: model.metrics.training,
      heldOut: model.metrics.heldOut,
      ndcg: model.metrics.ndcg,
      s: model.metrics.trainingSeconds,
      counts: model.metrics.counts,
    }),
  );
  expect(model.status, model.error ?? JSON.stringify(model.lastOutcome)).toBe('ready');
  return model;
}

describeOnEveryDatabase('rankers trained on clicks', (kind) => {
  const clock = new TestClock();
  const t = useTestApp(kind, { clock });
  const sim = simulateClicks({ queries: 30, docs: 10, depth: DEPTH, searches: 3000, seed: 27, start: clock.now() - DAY, ratedEvery: 2 });
  beforeAll(async () => {
    await writeClicks(t.database, sim);
  }, 120_000);

  it.each([
    [{ trainingData: 'logs' }, '/config/trainingData'],
    [{ trainingData: 'clicks', debiasing: 'dla' }, '/config/debiasing'],
    [{ trainingData: 'feedback', debiasing: 'ips' }, '/config/debiasing'],
    [{ trainingData: 'clicks', debiasing: 'ips', propensities: [1, 1.5] }, '/config/propensities'],
    [{ trainingData: 'clicks', debiasing: 'ips', propensities: [0.8, 0.5] }, '/config/propensities'],
    [{ trainingData: 'clicks', debiasing: 'ips', propensities: 'harvest' }, '/config/propensities'],
    [{ trainingData: 'clicks', debiasing: 'unbiased-lambdamart', propensities: [1, 0.5] }, '/config/propensities'],
    [{ trainingData: 'clicks', debiasing: 'ips', propensityClip: 2 }, '/config/propensityClip'],
  ])('registration refuses config %j with a 400 naming %s', async (config, path) => {
    expectError(await postJson(t.app, URL, { name: `bad-${path}`, type: 'ranker', config }), 400, 'VALIDATION_ERROR', path);
  });

  it('POST …/train refuses ips without propensities when the window holds no search with impressions (400 /config/propensities)', async () => {
    // The log is a day old: a one-hour window holds none of it.
    const config = { trainingData: 'clicks', debiasing: 'ips', window: '1h', ...TREES };
    expect((await postJson(t.app, URL, { modelId: 'ips-empty', name: 'ips-empty', type: 'ranker', config })).statusCode).toBe(201);
    await t.container.learning.services.trainingService.runUntilIdle();
    expectError(await postJson(t.app, `${URL}/ips-empty/train`, {}), 400, 'VALIDATION_ERROR', '/config/propensities');
    // With an explicit curve there is nothing to estimate: the run is queued (and ends no-data).
    const explicit = { ...config, propensities: [1, 0.5, 0.33] };
    expect(
      (await postJson(t.app, URL, { modelId: 'ips-explicit', name: 'ips-explicit', type: 'ranker', config: explicit })).statusCode,
    ).toBe(201);
    await t.container.learning.services.trainingService.runUntilIdle();
    const queued = await postJson(t.app, `${URL}/ips-explicit/train`, {});
    expect(queued.statusCode, JSON.stringify(queued.body)).toBe(202);
    await t.container.learning.services.trainingService.runUntilIdle();
  });

  it('ips with harvested propensities: the curve the run harvested, held-out clicks and judgments', async () => {
    const model = await trainModel(t, 'ips', { trainingData: 'clicks', debiasing: 'ips', ...TREES });
    const m = model.metrics;
    expect(m.source).toBe('clicks');
    expect(m.training).toMatchObject({ data: 'clicks', debiasing: 'ips', propensityClip: 0.1 });
    const bias = m.training.positionBias;
    expect(bias.source).toBe('harvested');
    expect(bias.harvestedPairs).toBeGreaterThan(0);
    expect(bias.positions.map((p: PositionRow) => p.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(bias.positions[0]).toEqual({ position: 1, clicked: 1, unclicked: null });
    // The simulated users examine position p with probability 1/p (measured: 0.505, 0.340, 0.251 … at 2, 3, 4).
    for (const p of bias.positions as PositionRow[]) expect(Math.abs(p.clicked - 1 / p.position)).toBeLessThan(0.06);
    expect(m.heldOut.clicks).toMatchObject({ metric: 'ips-ndcg@10' });
    expect(m.heldOut.clicks.groups).toBeGreaterThan(0);
    expect(m.heldOut.clicks.sessions).toBeGreaterThan(0);
    // The logger ranks by a noisier score than the client's `quality`: debiased, the model beats it on held-out clicks.
    expect(m.heldOut.clicks.model).toBeGreaterThan(m.heldOut.clicks.logged);
    expect(m.heldOut.judgments).toMatchObject({ metric: 'ndcg@10', source: 'ratings' });
    expect(m.heldOut.judgments.queries).toBeGreaterThan(0);
    expect(m.comparedOn).toMatchObject({ metric: 'ips-ndcg@10', value: m.heldOut.clicks.model });
    expect(m.ndcg['10']).toBeGreaterThan(0);
    expect(m.featureNames).toEqual(['impressions', 'noise', 'quality']);
    expect(m.counts).toMatchObject({ sessions: 3000, queries: 30 });
  });

  it('ips with the config curve, unbiased LambdaMART (learned t+ and t−) and naive clicks', async () => {
    const config = await trainModel(t, 'ips-config', {
      trainingData: 'clicks',
      debiasing: 'ips',
      propensities: [1, 0.5, 0.25],
      propensityClip: 0.2,
      ...TREES,
    });
    expect(config.metrics.training).toMatchObject({ debiasing: 'ips', propensityClip: 0.2, positionBias: { source: 'config' } });
    expect(config.metrics.training.positionBias.harvestedPairs).toBeUndefined();
    // Below the given curve its last value carries on.
    expect(config.metrics.training.positionBias.positions.map((p: PositionRow) => p.clicked)).toEqual([
      1, 0.5, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25,
    ]);

    // Two threads: trainOnClicksThreaded's feature-parallel split workers.
    const learned = await trainModel(t, 'ulm', { trainingData: 'clicks', threads: 2, ...TREES });
    expect(learned.metrics.training).toMatchObject({
      data: 'clicks',
      debiasing: 'unbiased-lambdamart',
      positionBias: { source: 'learned' },
    });
    expect(learned.metrics.training.propensityClip).toBeUndefined();
    const positions = learned.metrics.training.positionBias.positions as PositionRow[];
    expect(positions).toHaveLength(DEPTH);
    expect(positions[0]).toMatchObject({ position: 1, clicked: 1, unclicked: 1 });
    // Clicks fall with position in the log, so the learned examination of clicked results falls too.
    expect(positions[DEPTH - 1]!.clicked).toBeLessThan(0.6);
    for (const p of positions) expect(p.unclicked).toBeGreaterThan(0);
    expect(learned.metrics.heldOut.clicks.metric).toBe('ips-ndcg@10');
    expect(learned.metrics.heldOut.clicks.model).toBeGreaterThan(learned.metrics.heldOut.clicks.logged);

    const naive = await trainModel(t, 'naive', { trainingData: 'clicks', debiasing: 'none', ...TREES });
    expect(naive.metrics.training.positionBias).toEqual({
      source: 'none',
      positions: Array.from({ length: DEPTH }, (_, k) => ({ position: k + 1, clicked: 1, unclicked: 1 })),
    });
    expect(naive.metrics.heldOut.clicks.model).toBeGreaterThan(0);
  });

  it('every ranker version says its training data: feedback', async () => {
    const model = await trainModel(t, 'fb', { trainingData: 'feedback', minImpressions: 5, ...TREES });
    expect(model.metrics.training).toEqual({ data: 'feedback' });
  });

  it('a clicks version ranks through the API and its xgboost-json export scores identically with the exported walker', async () => {
    const queryHash = 'query0';
    const docs = [...sim.features.get(queryHash)!.entries()];
    const ranked = await postJson(t.app, `${URL}/ips/rank?explain=true`, {
      queryHash,
      results: docs.map(([resultId, features]) => ({ resultId, features })),
    });
    expect(ranked.statusCode, JSON.stringify(ranked.body)).toBe(200);
    const out = ranked.body.data.results as { resultId: string; score: number }[];
    // The behaviour feature as the window holds it, recomputed here from the simulated items.
    const behaviour = (resultId: string): Record<string, number> => {
      const rows = sim.items.filter((i) => i.queryHash === queryHash && i.resultId === resultId);
      const impressions = rows.filter((i) => i.userAction === 'impression').length;
      // A result the window never showed has no behaviour row: its feature is missing, not 0.
      return impressions > 0 ? { impressions } : {};
    };
    const dump = await request(t.app, { method: 'GET', url: `${URL}/ips/export?format=xgboost-json` });
    expect(dump.statusCode).toBe(200);
    const scorer = parseXgboostJson(dump.body);
    const scores = new Set<number>();
    for (const r of out) {
      const features = { ...behaviour(r.resultId), ...sim.features.get(queryHash)!.get(r.resultId)! };
      expect(scorer.score(features)).toBeCloseTo(r.score, 6);
      scores.add(Number(r.score.toFixed(6)));
    }
    expect(scores.size).toBeGreaterThan(1);
  });

  it('ips with a window of searches but no intervention ends without a version, naming exploration and config.propensities', async () => {
    // One logger, the same list for every search of a query: no result is ever shown at two positions.
    const fixed = simulateClicks({
      queries: 5,
      docs: 6,
      depth: 6,
      searches: 200,
      seed: 8,
      start: clock.now() - 3_600_000,
      loggers: 1,
      prefix: 'f',
    });
    await writeClicks(t.database, fixed);
    const res = await postJson(t.app, URL, {
      modelId: 'ips-fixed',
      name: 'ips-fixed',
      type: 'ranker',
      config: { trainingData: 'clicks', debiasing: 'ips', window: '2h', ...TREES },
    });
    expect(res.statusCode).toBe(201);
    await t.container.learning.services.trainingService.runUntilIdle();
    const model = (await getJson(t.app, `${URL}/ips-fixed`)).body.data;
    expect(model.status).toBe('failed');
    expect(model.error).toMatch(/PUT \/api\/nous\/rank\/exploration/);
    expect(model.error).toMatch(/config\.propensities/);
    expect((await getJson(t.app, `${URL}/ips-fixed/versions`)).body.data.items).toEqual([]);
  });
});
