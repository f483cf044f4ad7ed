import { beforeAll, expect, it } from 'vitest';
import { simulateClickLog } from '../../src/click-models/index.js';
import { ExplorationService } from '../../src/experiments/ranking/exploration.service.js';
import { explorationCost } from '../../src/offline-eval/exploration/cost.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { buildTestApp, useTestApp, type TestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { sendFeedback, sessionToItems } from '../learning/support/simulated-feedback.js';

const URL = '/api/nous/rank/exploration';
const ORIGINAL = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
const results = ORIGINAL.map((resultId) => ({ resultId }));

const put = (t: TestApp, body: unknown, headers: Record<string, string> = {}) =>
  request(t.app, { method: 'PUT', url: URL, payload: body as object, headers: { 'content-type': 'application/json', ...headers } });
const rank = (t: TestApp, unitId: string, queryId: string) =>
  postJson(t.app, '/api/nous/rank', { unitId, queryId, queryHash: 'shoes', results });
const storedLists = (t: TestApp) => t.database.db.selectFrom('exploration_lists').selectAll().orderBy('unit_id').execute();

describeOnEveryDatabase('rank exploration (RandPair, opt-in)', (kind) => {
  const clock = new TestClock();
  const t = useTestApp(kind, { clock });

  it('is off by default: no `exploration` field on rank and nothing recorded', async () => {
    const view = await getJson(t.app, URL);
    expect(view.statusCode, JSON.stringify(view.body)).toBe(200);
    expect(view.body.data).toEqual({
      share: 0,
      depth: 10,
      method: 'randpair',
      enabled: false,
      updatedAt: null,
      updatedBy: null,
      shownLists: 0,
      expectedCost: null,
    });
    for (let u = 0; u < 30; u++) {
      const res = await rank(t, `off-${u}`, `off-q${u}`);
      expect(res.statusCode).toBe(200);
      expect(res.body.data.exploration).toBeUndefined();
      expect(res.body.data.results.map((r: { resultId: string }) => r.resultId)).toEqual(ORIGINAL);
    }
    expect(await storedLists(t)).toEqual([]);
  });

  it('400s name the field', async () => {
    expectError(await put(t, { share: 0.25 }), 400, 'VALIDATION_ERROR', '/share');
    expectError(await put(t, { share: -0.01 }), 400, 'VALIDATION_ERROR', '/share');
    expectError(await put(t, { share: '0.1' }), 400, 'VALIDATION_ERROR', '/share');
    expectError(await put(t, {}), 400, 'VALIDATION_ERROR', '/share');
    expectError(await put(t, { share: 0.1, depth: 1 }), 400, 'VALIDATION_ERROR', '/depth');
    expectError(await put(t, { share: 0.1, depth: 21 }), 400, 'VALIDATION_ERROR', '/depth');
    expectError(await put(t, { share: 0.1, depth: 2.5 }), 400, 'VALIDATION_ERROR', '/depth');
    expectError(await put(t, { share: 0.1, method: 'shuffle' }), 400, 'VALIDATION_ERROR', '/method');
    expect((await getJson(t.app, URL)).body.data.enabled).toBe(false);
  });

  it('at share 0.2 the hashed units see one adjacent pair of the top depth swapped, each list recorded with its propensity', async () => {
    const set = await put(t, { share: 0.2, depth: 4 });
    expect(set.statusCode, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ share: 0.2, depth: 4, method: 'randpair', enabled: true, updatedBy: 'anonymous', shownLists: 0 });
    expect(set.body.data.updatedAt).toBe(new Date(clock.now()).toISOString());
    const events = await t.database.db.selectFrom('rank_exploration_events').selectAll().execute();
    expect(events.map((e) => [e.actor, e.before, JSON.parse(e.after).share])).toEqual([['anonymous', null, 0.2]]);

    const explored: { unitId: string; shown: string[]; swapped: [number, number]; propensity: number }[] = [];
    for (let u = 0; u < 300; u++) {
      const unitId = `unit-${u}`;
      const res = await rank(t, unitId, `q-${u}`);
      const data = res.body.data;
      const shown: string[] = data.results.map((r: { resultId: string }) => r.resultId);
      expect(data.results.map((r: { rank: number }) => r.rank)).toEqual([1, 2, 3, 4, 5, 6]);
      // The same units every time: exactly those the salted hash puts below the share.
      expect(data.exploration !== undefined).toBe(ExplorationService.explores(unitId, 0.2));
      if (!data.exploration) {
        expect(shown).toEqual(ORIGINAL);
        continue;
      }
      const [i, j] = data.exploration.swapped;
      expect(j).toBe(i + 1);
      expect(j).toBeLessThanOrEqual(4);
      const differing = ORIGINAL.flatMap((id, k) => (shown[k] === id ? [] : [k + 1]));
      expect(differing).toEqual([i, j]);
      expect(shown[i - 1]).toBe(ORIGINAL[j - 1]);
      expect(data.exploration.propensity).toBeCloseTo(1 / 3, 12);
      expect(data.exploration.overallPropensity).toBeCloseTo(0.2 / 3, 12);
      expect(data.served).toEqual({ source: 'original' });
      explored.push({ unitId, shown, swapped: data.exploration.swapped, propensity: data.exploration.propensity });
      // A retry shows the same list and is stored once.
      expect((await rank(t, unitId, `q-${u}`)).body.data).toEqual(data);
    }
    expect(explored.length).toBeGreaterThan(30);
    const rows = await storedLists(t);
    expect(
      rows.map((r) => ({
        unitId: r.unit_id,
        shown: JSON.parse(r.list),
        swapped: [Number(r.swapped_from), Number(r.swapped_to)],
        propensity: Number(r.propensity),
      })),
    ).toEqual([...explored].sort((a, b) => (a.unitId < b.unitId ? -1 : 1)));
    expect(rows.every((r) => r.query_hash === 'shoes' && Number(r.share) === 0.2 && Number(r.recorded_at) === clock.now())).toBe(true);
    expect((await getJson(t.app, URL)).body.data.shownLists).toBe(explored.length);
  });

  it('never explores an experiment’s arm: an interleaving experiment’s units are left alone', async () => {
    const created = await postJson(t.app, '/api/nous/ab-testing/experiments', {
      name: 'engine vs engine',
      configuration: { type: 'interleaving', variants: [{ id: 'a' }, { id: 'b' }] },
    });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.experimentId;
    expect((await postJson(t.app, `/api/nous/ab-testing/experiments/${id}/start`, {})).statusCode).toBe(200);
    const before = (await storedLists(t)).length;
    const units = Array.from({ length: 400 }, (_, u) => `arm-${u}`).filter((u) => ExplorationService.explores(u, 0.2));
    expect(units.length).toBeGreaterThan(40);
    for (const unitId of units) {
      const data = (await rank(t, unitId, `arm-q-${unitId}`)).body.data;
      expect(data.served).toMatchObject({ source: 'experiment', experimentId: id });
      expect(data.exploration).toBeUndefined();
    }
    expect((await storedLists(t)).length).toBe(before);
    expect((await postJson(t.app, `/api/nous/ab-testing/experiments/${id}/stop`, {})).statusCode).toBe(200);
  });

  it('reports the expected NDCG@10 cost on the latest click model over the latest logged searches', async () => {
    const sim = simulateClickLog({ model: 'pbm', seed: 26, queries: 3, docsPerQuery: 6, sessions: 240 });
    await sendFeedback(
      t.app,
      sim.sessions.flatMap((s, i) => sessionToItems(s, `logged-${i}`, clock.now() - 3_600_000 + i * 1000)),
    );
    await postJson(t.app, '/api/nous/learn/models', {
      modelId: 'clicks',
      name: 'clicks',
      type: 'click_model',
      config: { algorithm: 'pbm' },
    });
    await t.container.learning.services.trainingService.runUntilIdle();
    const view = (await getJson(t.app, URL)).body.data;
    expect(view.expectedCost, JSON.stringify(view)).not.toBeNull();
    const cost = view.expectedCost;
    expect(cost.basis).toMatch(/^click model clicks v1 over the latest 200 logged searches \(3 queries, last 7 days\)/);
    // The same figure from the model's own rank endpoint and the pure cost, over the 200 newest searches.
    const latest = sim.sessions.slice(-200);
    const relevance = new Map<string, Map<string, number>>();
    for (const q of new Set(latest.map((s) => s.queryHash))) {
      const ids = [...new Set(latest.filter((s) => s.queryHash === q).flatMap((s) => s.resultIds))];
      const ranked = await postJson(t.app, '/api/nous/learn/models/clicks/rank', {
        queryHash: q,
        results: ids.map((resultId) => ({ resultId })),
      });
      relevance.set(q, new Map(ranked.body.data.results.map((r: { resultId: string; score: number }) => [r.resultId, r.score])));
    }
    const lists = latest.map((s) => s.resultIds.map((id) => relevance.get(s.queryHash)!.get(id)!));
    expect(cost.perExploredSearch).toBeCloseTo(explorationCost(lists, 1, 4).ndcgLoss, 10);
    expect(cost.ndcgAt10Loss).toBeCloseTo(0.2 * cost.perExploredSearch, 12);
    expect(cost.perExploredSearch).toBeGreaterThan(0);
  }, 120_000);

  it('turning it off stops exploring and keeps the lists', async () => {
    const kept = (await storedLists(t)).length;
    const off = await put(t, { share: 0 });
    expect(off.body.data).toMatchObject({ share: 0, enabled: false, shownLists: 0 });
    const unitId = Array.from({ length: 100 }, (_, u) => `later-${u}`).find((u) => ExplorationService.explores(u, 0.2))!;
    expect((await rank(t, unitId, 'later-q')).body.data.exploration).toBeUndefined();
    expect((await storedLists(t)).length).toBe(kept);
    const events = await t.database.db.selectFrom('rank_exploration_events').select(['after']).orderBy('at').orderBy('id').execute();
    expect(events.map((e) => JSON.parse(e.after).share)).toEqual([0.2, 0]);
  });
});

describeOnEveryDatabase('rank exploration scopes', (kind) => {
  let t: TestApp;
  const READ = 'sl_read_0123456789abcdef';
  const ADMIN = 'sl_admin_0123456789abcdef';
  beforeAll(async () => {
    t = await buildTestApp(kind, {
      envApiKeys: [
        { key: READ, scope: 'read' },
        { key: ADMIN, scope: 'admin' },
      ],
    });
    return () => t.close();
  });

  it('a read key reads the settings but may not change them (403); an admin key may', async () => {
    const read = await request(t.app, { method: 'GET', url: URL, headers: { authorization: `Bearer ${READ}` } });
    expect(read.statusCode).toBe(200);
    expectError(await put(t, { share: 0.05 }, { authorization: `Bearer ${READ}` }), 403, 'FORBIDDEN');
    const admin = await put(t, { share: 0.05 }, { authorization: `Bearer ${ADMIN}` });
    expect(admin.statusCode, JSON.stringify(admin.body)).toBe(200);
    expect(admin.body.data).toMatchObject({ share: 0.05, enabled: true });
    expect(admin.body.data.updatedBy).not.toBe('anonymous');
  });
});
