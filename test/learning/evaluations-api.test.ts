import { describe, expect, it } from 'vitest';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { buildTestApp, useTestApp, type TestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { trainRanker } from '../experiments/support/rankers.js';
import { mulberry32 } from '../../src/random/index.js';
import { writeLog } from './support/logged-searches.js';

const URL = '/api/nous/learn/evaluations';
const START = Date.UTC(2026, 9, 1);
const window = { from: new Date(START).toISOString(), to: new Date(START + 86_400_000).toISOString() };

/** LETOR lines whose label follows feature 1 (`good`) or its opposite: the log's feature 1 is the true relevance. */
function letor(direction: 'good' | 'bad', seed: number): string {
  const random = mulberry32(seed);
  const lines: string[] = [];
  for (let q = 1; q <= 30; q += 1)
    for (let d = 0; d < 8; d += 1) {
      const x1 = random();
      const x2 = Math.floor(random() * 8);
      const label = Math.round(4 * (direction === 'good' ? x1 : 1 - x1));
      lines.push(`${label} qid:${q} 1:${x1.toFixed(3)} 2:${x2}`);
    }
  return `${lines.join('\n')}\n`;
}

const TREES = { numTrees: 10, numLeaves: 4, minDataInLeaf: 5, earlyStoppingRounds: 0 };

describeOnEveryDatabase('offline evaluations', (kind) => {
  const t = useTestApp(kind);
  let goodVersion = 0;

  it('evaluates a ranker version over seeded feedback: 201, the version resolved, and a good ranker predicted above a bad one', async () => {
    await writeLog(t.database, { queries: 20, docs: 10, searches: 800, seed: 5, start: START });
    goodVersion = await trainRanker(t, 'good', letor('good', 1), TREES);
    await trainRanker(t, 'bad', letor('bad', 2), TREES);

    const good = await postJson(t.app, URL, { candidate: { modelId: 'good' }, ...window });
    expect(good.statusCode, JSON.stringify(good.body)).toBe(201);
    const g = good.body.data;
    expect(g).toMatchObject({
      status: 'done',
      progress: 1,
      candidate: { kind: 'model', modelId: 'good', version: goodVersion },
      baseline: { kind: 'logged' },
      estimator: 'snips',
      depth: 10,
      searches: 800,
      queries: 20,
      enoughCoverage: true,
      window,
    });
    expect(g.metrics.map((m: { metric: string }) => m.metric)).toEqual(['mrr', 'clicks_per_search', 'ctr@10', 'abandonment_rate']);
    expect(g.propensities[0]).toMatchObject({ position: 1, estimate: 1 });
    expect(g.summary.length).toBeGreaterThan(10);
    expect(g.interleaving.shareWon).toBeGreaterThanOrEqual(0);

    const bad = await postJson(t.app, URL, { name: 'worse', candidate: { modelId: 'bad', version: 1 }, ...window, metrics: ['mrr'] });
    expect(bad.statusCode, JSON.stringify(bad.body)).toBe(201);
    const mrr = (e: { metrics: { metric: string; relativeDifference: { estimate: number } }[] }) =>
      e.metrics.find((m) => m.metric === 'mrr')!.relativeDifference.estimate;
    expect(mrr(g)).toBeGreaterThan(mrr(bad.body.data));
    // The stored evaluation reads back the same.
    expect((await getJson(t.app, `${URL}/${g.evaluationId}`)).body.data).toEqual(g);
  }, 120_000);

  it('evaluates uploaded rankings and an alias; a cleared alias is the logged order', async () => {
    const rankings = { query0: ['q0-d0', 'q0-d1', 'q0-d2'], query1: ['q1-d7', 'q1-d6'] };
    const uploaded = await postJson(t.app, URL, { candidate: { rankings }, ...window, estimator: 'ips', depth: 5 });
    expect(uploaded.statusCode, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.data).toMatchObject({ candidate: { kind: 'rankings', queries: 2 }, estimator: 'ips', depth: 5 });

    const put = (body: object) =>
      request(t.app, {
        method: 'PUT',
        url: '/api/nous/learn/aliases/production',
        payload: body,
        headers: { 'content-type': 'application/json' },
      });
    expect((await put({ modelId: 'good' })).statusCode).toBe(200);
    const viaAlias = await postJson(t.app, URL, { candidate: { alias: 'production' }, ...window });
    expect(viaAlias.body.data.candidate).toEqual({ kind: 'alias', alias: 'production', modelId: 'good', version: goodVersion });
    expect((await put({ modelId: null })).statusCode).toBe(200);
    const cleared = await postJson(t.app, URL, { candidate: { alias: 'production' }, ...window });
    expect(cleared.statusCode, JSON.stringify(cleared.body)).toBe(201);
    expect(cleared.body.data.candidate).toEqual({ kind: 'alias', alias: 'production', modelId: null, version: null });
  });

  it('answers bad requests with a 400 naming the field', async () => {
    const body = { candidate: { modelId: 'good' }, ...window };
    expectError(await postJson(t.app, URL, { ...body, from: window.to, to: window.from }), 400, 'VALIDATION_ERROR', '/from');
    expectError(
      await postJson(t.app, URL, { ...body, from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' }),
      400,
      'VALIDATION_ERROR',
      '/from',
    );
    expectError(await postJson(t.app, URL, { ...body, from: 'yesterday' }), 400, 'VALIDATION_ERROR', '/from');
    expectError(await postJson(t.app, URL, { ...body, candidate: { modelId: 'nope' } }), 400, 'VALIDATION_ERROR', '/candidate/modelId');
    expectError(
      await postJson(t.app, URL, { ...body, candidate: { modelId: 'good', version: 99 } }),
      400,
      'VALIDATION_ERROR',
      '/candidate/version',
    );
    expectError(await postJson(t.app, URL, { ...body, candidate: { alias: 'nowhere' } }), 400, 'VALIDATION_ERROR', '/candidate/alias');
    expectError(await postJson(t.app, URL, { ...body, candidate: { rankings: {} } }), 400, 'VALIDATION_ERROR', '/candidate/rankings');
    expectError(await postJson(t.app, URL, { ...body, baseline: { modelId: 'nope' } }), 400, 'VALIDATION_ERROR', '/baseline/modelId');
    expectError(await postJson(t.app, URL, { ...body, metrics: ['mrr', 'ctr@0'] }), 400, 'VALIDATION_ERROR', '/metrics/1');
    expectError(await postJson(t.app, URL, { ...body, estimator: 'magic' }), 400, 'VALIDATION_ERROR', '/estimator');
    expectError(await getJson(t.app, `${URL}/01NOSUCHEVALUATION0000000`), 404, 'NOT_FOUND');
  });

  it('lists evaluations newest first, in pages, filtered by model', async () => {
    const all = (await getJson(t.app, `${URL}?limit=200`)).body.data.items as { evaluationId: string; createdAt: string }[];
    expect(all.length).toBe(5);
    const ids = all.map((e) => e.evaluationId);
    expect([...ids].sort().reverse()).toEqual(ids);
    const first = (await getJson(t.app, `${URL}?limit=4`)).body.data;
    expect(first.items.map((e: { evaluationId: string }) => e.evaluationId)).toEqual(ids.slice(0, 4));
    const second = (await getJson(t.app, `${URL}?limit=4&cursor=${first.nextCursor}`)).body.data;
    expect(second.items.map((e: { evaluationId: string }) => e.evaluationId)).toEqual(ids.slice(4));
    expect(second.nextCursor).toBeNull();
    const bad = (await getJson(t.app, `${URL}?modelId=bad`)).body.data.items;
    expect(bad.map((e: { name: string }) => e.name)).toEqual(['worse']);
  });

  it('measures position bias on the window: harvested beside PBM, position 1 = 1, per device on request', async () => {
    const res = await getJson(t.app, `/api/nous/learn/position-bias?from=${START}&to=${START + 86_400_000}&dimension=deviceType`);
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ method: 'allpairs', searches: 800, window });
    expect(d.harvestedPairs).toBeGreaterThan(0);
    expect(d.positions).toHaveLength(10);
    expect(d.positions[0]).toEqual({ position: 1, estimate: 1, interval: [1, 1], support: expect.any(Number) });
    expect(d.pbm[0]).toEqual({ position: 1, examination: 1 });
    // The simulated users examine position 2 half as often as position 1 (1/p).
    expect(d.positions[1].estimate).toBeLessThan(0.8);
    expect(d.byDimension.values.map((v: { value: string }) => v.value).sort()).toEqual(['desktop', 'mobile']);
    expectError(
      await getJson(t.app, '/api/nous/learn/position-bias?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z'),
      400,
      'VALIDATION_ERROR',
      '/from',
    );
  });
});

describe('offline evaluations: scopes and background runs', () => {
  it('needs the admin scope to create; a read key lists and reads', async () => {
    const keys = [
      { key: 'sl_admin_0123456789abcdef', scope: 'admin' as const },
      { key: 'sl_read_0123456789abcdef', scope: 'read' as const },
    ];
    const t = await buildTestApp('sqlite', { envApiKeys: keys });
    try {
      await writeLog(t.database, { queries: 5, docs: 5, searches: 50, seed: 9, start: START });
      const body = { candidate: { rankings: { query0: ['q0-d1', 'q0-d0'] } }, ...window };
      const asRead = await postJson(t.app, URL, body, { 'x-api-key': keys[1]!.key });
      expectError(asRead, 403, 'FORBIDDEN');
      const asAdmin = await postJson(t.app, URL, body, { 'x-api-key': keys[0]!.key });
      expect(asAdmin.statusCode, JSON.stringify(asAdmin.body)).toBe(201);
      const read = await request(t.app, { method: 'GET', url: URL, headers: { 'x-api-key': keys[1]!.key } });
      expect(read.body.data.items).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describeOnEveryDatabase('offline evaluations in the background', (kind) => {
  let t: TestApp;

  it('answers 202 above the threshold, then GET shows the finished evaluation with progress 1', async () => {
    t = await buildTestApp(kind, { evaluation: { syncLimit: 100 } });
    try {
      await writeLog(t.database, { queries: 10, docs: 6, searches: 300, seed: 11, start: START });
      const res = await postJson(t.app, URL, { candidate: { rankings: { query0: ['q0-d5', 'q0-d4', 'q0-d3'] } }, ...window });
      expect(res.statusCode, JSON.stringify(res.body)).toBe(202);
      expect(res.body.data).toMatchObject({ status: 'running', progress: 0 });
      const id = res.body.data.evaluationId as string;
      const early = (await getJson(t.app, `${URL}/${id}`)).body.data;
      expect(['running', 'done']).toContain(early.status);
      await t.container.learning.services.evaluationService.idle();
      const done = (await getJson(t.app, `${URL}/${id}`)).body.data;
      // Only the searches of the queries the candidate ranks are evaluated (query0: 30 of 300).
      expect(done, JSON.stringify(done)).toMatchObject({ status: 'done', progress: 1, searches: 30, queries: 1 });
      expect(done.finishedAt).not.toBeNull();
    } finally {
      await t.close();
    }
  }, 60_000);
});
