import { beforeAll, expect, it } from 'vitest';
import { simulateClickLog } from '../../src/click-models/index.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { sendFeedback, sessionToItems, type FeedbackItem } from './support/simulated-feedback.js';

const URL = '/api/nous/learn/models';
const DAY = 86_400_000;
// 10 queries × 12 documents in random orders: every pair is seen at every rank. 15 000 searches,
// the latest 20 % held out; this seed's fit is within 0.015 of the truth in the pure code.
const sim = simulateClickLog({ model: 'pbm', seed: 3, queries: 10, docsPerQuery: 12, sessions: 15_000 });

describeOnEveryDatabase('click model trained from feedback', (kind) => {
  const clock = new TestClock();
  const t = useTestApp(kind, { clock });
  beforeAll(async () => {
    const start = clock.now() - 10 * DAY;
    const items: FeedbackItem[] = [];
    sim.sessions.forEach((s, i) =>
      items.push(...sessionToItems(s, `search-${i}`, start + Math.floor((i * 9 * DAY) / sim.sessions.length))),
    );
    await sendFeedback(t.app, items);
  }, 300_000);

  it('trains through the API: pending → ready, examination per rank within ±0.03 of the simulated truth', async () => {
    const created = await postJson(t.app, URL, { modelId: 'pbm', name: 'pbm', type: 'click_model', config: { algorithm: 'pbm' } });
    expect(created.statusCode).toBe(201);
    expect(created.body.data.status).toBe('pending');
    expect(await t.container.learning.services.trainingService.runUntilIdle()).toBe(1);

    const model = (await getJson(t.app, `${URL}/pbm`)).body.data;
    expect(model.status).toBe('ready');
    expect(model.error).toBeNull();
    expect(model.activeVersion).toBe(1);
    expect(model.lastTraining).toMatchObject({ outcome: 'activated', version: 1 });
    const m = model.metrics;
    expect(m.examination).toHaveLength(10);
    m.examination.forEach((gamma: number, r: number) => expect(Math.abs(gamma - (sim.examination[r] as number))).toBeLessThanOrEqual(0.03));
    expect(m.logLikelihood).toBeLessThan(0);
    expect(m.perplexityByRank).toHaveLength(10);
    expect(m.perplexity).toBeGreaterThan(1);
    expect(m.impressionsInferred).toBe(0);
    expect(m.trainingSeconds).toBeGreaterThan(0);
    expect(m.version).toBe(1);
    expect(m.counts).toMatchObject({
      sessions: 15_000,
      trainSessions: 12_000,
      heldOutSessions: 3000,
      queries: 10,
      results: 120,
      pairs: 120,
    });
    expect(m.window.from).toBe(new Date(clock.now() - 30 * DAY).toISOString());
  });

  it('lists versions with metrics, window and counts', async () => {
    const page = (await getJson(t.app, `${URL}/pbm/versions`)).body.data;
    expect(page.nextCursor).toBeNull();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ version: 1, active: true, outcome: 'activated', counts: { sessions: 15_000 } });
    expect(page.items[0].trainingSeconds).toBeGreaterThan(0);
    expect(page.items[0].window.to).toBe(new Date(clock.now() + 5 * 60_000).toISOString());
  });

  it('exports judgments as OpenSearch import JSON, RankLib lines and CSV', async () => {
    const json = await request(t.app, { method: 'GET', url: `${URL}/pbm/judgments?format=json` });
    expect(json.statusCode).toBe(200);
    expect(json.body.type).toBe('IMPORT_JUDGMENT');
    expect(json.body.judgmentRatings).toHaveLength(10);
    expect(json.body.judgmentRatings[0].ratings[0].rating).toMatch(/^[0-4]\.000$/);
    const ranklib = await request(t.app, { method: 'GET', url: `${URL}/pbm/judgments?format=ranklib` });
    expect(ranklib.headers['content-type']).toMatch(/^text\/plain/);
    expect(ranklib.body.split('\n').filter((l: string) => /^[0-4] qid:\d+ # \S+ \S+/.test(l))).toHaveLength(120);
    const csv = await request(t.app, { method: 'GET', url: `${URL}/pbm/judgments?format=csv&grades=quantile` });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe('queryHash,resultId,grade,relevance,impressions,clicks');
    expect(lines).toHaveLength(121);
    expectError(await getJson(t.app, `${URL}/pbm/judgments?format=xml`), 400, 'VALIDATION_ERROR', '/format');
  });

  it('ranks results of a query by relevance, with explanations on request', async () => {
    const q = sim.sessions[0]!.queryHash;
    const docs = sim.sessions[0]!.resultIds.slice(0, 5);
    const res = await postJson(t.app, `${URL}/pbm/rank?explain=true`, { queryHash: q, results: docs.map((resultId) => ({ resultId })) });
    expect(res.statusCode).toBe(200);
    const scores = res.body.data.results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(res.body.data.results[0].explanation.contributions.relevance).toBe(scores[0]);
    expectError(await postJson(t.app, `${URL}/pbm/rank`, { results: [{ resultId: 'a' }] }), 400, 'VALIDATION_ERROR', '/queryHash');
  });

  it('retrains on request: 202, 409 while queued, a second version', async () => {
    const first = await postJson(t.app, `${URL}/pbm/train`, {});
    expect(first.statusCode).toBe(202);
    expect(first.body.data).toMatchObject({ modelId: 'pbm', status: 'queued', reason: 'manual', force: false });
    expectError(await postJson(t.app, `${URL}/pbm/train`, {}), 409, 'CONFLICT');
    await t.container.learning.services.trainingService.runUntilIdle();
    const versions = (await getJson(t.app, `${URL}/pbm/versions?limit=1`)).body.data;
    expect(versions.items[0].version).toBe(2);
    const next = (await getJson(t.app, `${URL}/pbm/versions?limit=1&cursor=${versions.nextCursor}`)).body.data;
    expect(next.items.map((v: { version: number }) => v.version)).toEqual([1]);
  });
});
