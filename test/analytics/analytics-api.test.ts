import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, getJson, postJson } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { FIRST_BATCH, SECOND_BATCH, WINDOW } from './support/hand-built-log.js';

const BASE = '/api/cortex/analytics';
const close = (actual: number | null, expected: number) => expect(actual).toBeCloseTo(expected, 5);

// Folded on the event loop and, as the server does by default, on the fold thread: the same figures.
describe.each([
  ['on the event loop', false],
  ['on the fold thread', true],
])('folded %s', (_, analyticsFoldThread) => {
  describeOnEveryDatabase('search analytics over a hand-built log', (kind) => {
    const t = useTestApp(kind, { clock: new TestClock(Date.parse('2026-11-22T12:00:00Z')), analyticsFoldThread });
    const post = async (batch: typeof FIRST_BATCH) => {
      for (const submission of batch) expect((await postJson(t.app, '/api/cortex/feedback', submission)).statusCode).toBe(201);
    };
    const get = async (path: string) => {
      const res = await getJson(t.app, `${BASE}${path}`);
      expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
      expect(res.body.success).toBe(true);
      return res.body.data;
    };

    describe('after the first batch', () => {
      beforeAll(async () => {
        await post(FIRST_BATCH);
        await t.container.analytics.services.analyticsService.catchUp();
      });

      it('counts S3 and S4 as abandoned and the first click of S1 at position 2', async () => {
        const o = await get(`/overview?${WINDOW}`);
        expect(o.totals).toMatchObject({ searches: 4, impressions: 8, clicks: 3, conversions: 1 });
        close(o.totals.abandonmentRate, 2 / 4);
        close(o.totals.meanFirstClickPosition, (2 + 3) / 2);
        expect(o.dataFreshAsOf).toBe('2026-11-22T12:00:00.000Z');
      });
    });

    describe('after the late events of the second batch', () => {
      beforeAll(async () => {
        await post(SECOND_BATCH);
        await t.container.analytics.services.analyticsService.catchUp();
      });

      it('overview: every figure over the window, with the window and freshness', async () => {
        const o = await get(`/overview?${WINDOW}`);
        expect(o.window).toEqual({ from: '2026-11-22T00:00:00.000Z', to: '2026-11-22T12:00:00.000Z' });
        expect(o.dimension).toBeNull();
        expect(o.interval).toBe('day');
        expect(o.totals).toMatchObject({
          searches: 5,
          sessions: 3,
          distinctQueries: 2,
          impressions: 9,
          clicks: 6,
          conversions: 2,
          zeroResultSearches: 1,
        });
        close(o.totals.ctr, 6 / 9);
        close(o.totals.abandonmentRate, 1 / 5);
        // First clicks: S1 at 3 (the late click is the earliest), S2 at 3, S3 at 1, S5 at 1.
        close(o.totals.meanFirstClickPosition, 8 / 4);
        close(o.totals.mrr, (1 / 3 + 1 / 3 + 1 + 1) / 5);
        close(o.totals.zeroResultRate, 1 / 4);
        expect(o.histogram).toHaveLength(21);
        expect(o.histogram[0]).toEqual({ position: '1', firstClicks: 2, share: 0.5 });
        expect(o.histogram[1]).toEqual({ position: '2', firstClicks: 0, share: 0 });
        expect(o.histogram[2]).toEqual({ position: '3', firstClicks: 2, share: 0.5 });
        expect(o.histogram[20].position).toBe('21+');
        expect(o.series).toHaveLength(1);
        // distinct queries of the whole day: shoes and socks
        expect(o.series[0]).toMatchObject({ start: '2026-11-22T00:00:00.000Z', searches: 5, clicks: 6, distinctQueries: 2 });
      });

      it('hourly series: the late S5 lands in its own hour (09:00)', async () => {
        const o = await get(`/overview?${WINDOW}&interval=hour`);
        expect(o.series).toHaveLength(12);
        const at = (h: string) => o.series.find((p: { start: string }) => p.start === `2026-11-22T${h}:00:00.000Z`);
        expect(at('08')).toMatchObject({ searches: 0, impressions: 0, ctr: null, abandonmentRate: null });
        expect(at('09')).toMatchObject({ searches: 1, sessions: 1, impressions: 1, clicks: 1, conversions: 1, abandonmentRate: 0 });
        expect(at('10')).toMatchObject({ searches: 2, sessions: 1, impressions: 6, clicks: 4, conversions: 1, abandonmentRate: 0 });
        expect(at('11')).toMatchObject({ searches: 2, sessions: 1, impressions: 2, clicks: 1, conversions: 0, abandonmentRate: 0.5 });
        // distinct queries per hour: socks (S5) at 09, shoes (S1, S2) at 10, shoes (S3) and socks (S4) at 11
        expect([at('08'), at('09'), at('10'), at('11')].map((p) => p.distinctQueries)).toEqual([0, 1, 1, 2]);
      });

      it('two dimensions: deviceType=mobile and language=de', async () => {
        const mobile = await get(`/overview?${WINDOW}&dimension=deviceType&value=mobile`);
        expect(mobile.dimension).toBe('deviceType');
        expect(mobile.totals).toMatchObject({ searches: 3, sessions: 2, impressions: 7, clicks: 5, conversions: 2, abandonmentRate: 0 });
        const de = await get(`/overview?${WINDOW}&dimension=language&value=de`);
        expect(de.totals).toMatchObject({ searches: 2, sessions: 1, impressions: 2, clicks: 1, conversions: 0, zeroResultSearches: 1 });
        close(de.totals.abandonmentRate, 1 / 2);
        close(de.totals.zeroResultRate, 1);
      });

      it('a 7-day window is read from the span totals plus the hours after their anchor, with the same figures', async () => {
        // The clock is 12:00, so the spans end at 09:00 (3 h before the current hour): S0 (Nov 21
        // 18:00) is in the 7-day span, S5 (09:00), S1, S2 (10:00), S3 and S4 (11:00) in the edge.
        const week = 'from=2026-11-15T12:00:00Z&to=2026-11-22T12:00:00Z';
        const o = await get(`/overview?${week}`);
        expect(o.totals).toMatchObject({ searches: 6, distinctQueries: 2 });
        const page = await get(`/queries?${week}&minSearches=1`);
        expect(page.items.map((r: { queryHash: string; searches: number }) => [r.queryHash, r.searches])).toEqual([
          ['shoes', 4],
          ['socks', 2],
        ]);
        const [shoes, socks] = page.items;
        // shoes: S0 2 impressions, S1 3 + S2 3 + S3 2 = 10; clicks S1 3, S2 1, S3 1 = 5; abandoned S0 only
        expect(shoes).toMatchObject({ impressions: 10, clicks: 5, sessions: 3, share: 4 / 6, change: { previousSearches: 0 } });
        close(shoes.abandonmentRate, 1 / 4);
        // socks: S4 (zero results, no click) and S5 (a click at 1)
        expect(socks).toMatchObject({ impressions: 1, clicks: 1, zeroResultSearches: 1, sessions: 2 });
        close(socks.abandonmentRate, 1 / 2);
        expect((await get(`/queries?${week}&minSearches=3`)).items.map((r: { queryHash: string }) => r.queryHash)).toEqual(['shoes']);
      });

      it('queries: figures, share, change against the previous window with Holm across the page', async () => {
        expect((await get(`/queries?${WINDOW}`)).items).toEqual([]); // minSearches defaults to 10
        const page = await get(`/queries?${WINDOW}&minSearches=1&sort=abandonment&order=desc`);
        expect(page.items.map((r: { queryHash: string }) => r.queryHash)).toEqual(['socks', 'shoes']);
        const [socks, shoes] = page.items;
        expect(shoes).toMatchObject({
          queryHash: 'shoes',
          queryText: 'running shoes',
          searches: 3,
          sessions: 2,
          impressions: 8,
          clicks: 5,
          conversions: 1,
          abandonmentRate: 0,
          zeroResultSearches: 0,
          zeroResultRate: 0,
        });
        close(shoes.ctr, 5 / 8);
        close(shoes.meanFirstClickPosition, 7 / 3);
        close(shoes.mrr, (1 / 3 + 1 / 3 + 1) / 3);
        close(shoes.share, 3 / 5);
        expect(shoes.change.previousSearches).toBe(1);
        // Previous window: S0, 2 impressions, no click. Pooled z-tests (scipy): CTR 0/2 → 5/8, abandonment 1/1 → 0/3.
        close(shoes.change.ctr.previous, 0);
        close(shoes.change.ctr.delta, 0.625);
        close(shoes.change.ctr.pValue, 0.113846298);
        close(shoes.change.ctr.adjustedPValue, 0.113846298);
        close(shoes.change.abandonmentRate.delta, -1);
        close(shoes.change.abandonmentRate.pValue, 0.0455002639);
        close(shoes.change.abandonmentRate.adjustedPValue, 2 * 0.0455002639);
        expect(shoes.change.ctr.significant).toBe(false);
        expect(shoes.change.abandonmentRate.significant).toBe(false);
        expect(shoes.trend).toEqual({ interval: 'hour', searches: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1] });

        expect(socks).toMatchObject({ searches: 2, sessions: 2, impressions: 1, clicks: 1, ctr: 1, abandonmentRate: 0.5, conversions: 1 });
        expect(socks.queryText).toBeUndefined();
        close(socks.meanFirstClickPosition, 1);
        close(socks.mrr, 0.5);
        close(socks.zeroResultRate, 0.5);
        close(socks.share, 0.4);
        expect(socks.change.previousSearches).toBe(0);
        expect(socks.change.ctr.pValue).toBeNull();
        expect(socks.trend.searches[9]).toBe(1);
      });

      it('queries: cursor paging walks the sorted list once', async () => {
        const first = await get(`/queries?${WINDOW}&minSearches=1&sort=ctr&order=asc&limit=1`);
        expect(first.items.map((r: { queryHash: string }) => r.queryHash)).toEqual(['shoes']);
        expect(first.nextCursor).toEqual(expect.any(String));
        const second = await get(`/queries?${WINDOW}&minSearches=1&sort=ctr&order=asc&limit=1&cursor=${first.nextCursor}`);
        expect(second.items.map((r: { queryHash: string }) => r.queryHash)).toEqual(['socks']);
        expect(second.nextCursor).toBeNull();
      });

      it('one query: results with CTR by position, mean position, and the default model (untrained) relevance', async () => {
        const q = await get(`/queries/shoes?${WINDOW}`);
        expect(q.queryText).toBe('running shoes');
        expect(q.figures.searches).toBe(3);
        close(q.figures.share, 0.6);
        expect(q.results.map((r: { resultId: string }) => r.resultId)).toEqual(['r1', 'r2', 'r3']);
        const [r1, r2, r3] = q.results;
        expect(r1).toMatchObject({ impressions: 3, clicks: 1, relevance: null });
        close(r1.meanPosition, 4 / 3);
        expect(r1.byPosition).toEqual([
          { position: 1, impressions: 2, clicks: 1, ctr: 0.5 },
          { position: 2, impressions: 1, clicks: 0, ctr: 0 },
        ]);
        expect(r2).toMatchObject({ impressions: 3, clicks: 2 });
        close(r2.meanPosition, 5 / 3);
        expect(r2.byPosition).toEqual([
          { position: 1, impressions: 1, clicks: 1, ctr: 1 },
          { position: 2, impressions: 2, clicks: 1, ctr: 0.5 },
        ]);
        expect(r3).toMatchObject({ impressions: 2, clicks: 2, ctr: 1, meanPosition: 3 });
        expect(q.positions).toEqual([
          { position: 1, impressions: 3, clicks: 2, ctr: 2 / 3 },
          { position: 2, impressions: 3, clicks: 1, ctr: 1 / 3 },
          { position: 3, impressions: 2, clicks: 2, ctr: 1 },
        ]);
        expect(q.histogram[0]).toMatchObject({ firstClicks: 1 });
        expect(q.histogram[2]).toMatchObject({ firstClicks: 2 });
        expect(q.relevanceModel).toMatchObject({ modelId: 'default', version: null });
        expect(q.relevanceModel.reason).toEqual(expect.any(String));
      });

      it('one query with a dimension filter: figures and results of the mobile items only', async () => {
        const q = await get(`/queries/shoes?${WINDOW}&dimension=deviceType&value=mobile`);
        expect(q).toMatchObject({ dimension: 'deviceType', value: 'mobile' });
        // S1 and S2 (mobile); S3 is desktop. Share: 2 of the 3 mobile searches (S5 is mobile socks).
        expect(q.figures.searches).toBe(2);
        close(q.figures.share, 2 / 3);
        // S1: r1@1 r2@2 r3@3 shown, clicks r2@2, r1@1 and (late) r3@3; S2: r1@1 r2@2 r3@3 shown, click r3@3
        expect(
          q.results.map((r: { resultId: string; impressions: number; clicks: number }) => [r.resultId, r.impressions, r.clicks]),
        ).toEqual([
          ['r1', 2, 1],
          ['r2', 2, 1],
          ['r3', 2, 2],
        ]);
        expect(q.positions).toEqual([
          { position: 1, impressions: 2, clicks: 1, ctr: 0.5 },
          { position: 2, impressions: 2, clicks: 1, ctr: 0.5 },
          { position: 3, impressions: 2, clicks: 2, ctr: 1 },
        ]);
        const desktop = await get(`/queries/shoes?${WINDOW}&dimension=deviceType&value=desktop`);
        // S3: r2@1 r1@2 shown, (late) click r2@1
        expect(
          desktop.results.map((r: { resultId: string; impressions: number; clicks: number }) => [r.resultId, r.impressions, r.clicks]),
        ).toEqual([
          ['r2', 1, 1],
          ['r1', 1, 0],
        ]);
      });

      it("relevance of a trained click model is the learning module's estimate for each result", async () => {
        const created = await postJson(t.app, '/api/nous/learn/models', {
          modelId: 'pbm-q',
          name: 'pbm-q',
          type: 'click_model',
          config: { algorithm: 'pbm' },
        });
        expect(created.statusCode).toBe(201);
        await t.container.learning.services.trainingService.runUntilIdle();
        const model = (await getJson(t.app, '/api/nous/learn/models/pbm-q')).body.data;
        expect(model.status, JSON.stringify(model)).toBe('ready');
        const q = await get(`/queries/shoes?${WINDOW}&model=pbm-q`);
        expect(q.relevanceModel).toEqual({ modelId: 'pbm-q', version: 1, reason: null });
        const ranked = await postJson(t.app, '/api/nous/learn/models/pbm-q/rank', {
          queryHash: 'shoes',
          results: [{ resultId: 'r1' }, { resultId: 'r2' }, { resultId: 'r3' }],
        });
        const score = new Map(ranked.body.data.results.map((r: { resultId: string; score: number }) => [r.resultId, r.score]));
        for (const r of q.results) {
          expect(r.relevance).toEqual(expect.any(Number));
          expect(r.relevance).toBeCloseTo(score.get(r.resultId) as number, 12);
        }
      });

      it('400s name the field; unknown queries and models are 404', async () => {
        expectError(
          await getJson(t.app, `${BASE}/overview?from=2026-11-22T12:00:00Z&to=2026-11-22T00:00:00Z`),
          400,
          'VALIDATION_ERROR',
          '/from',
        );
        expectError(
          await getJson(t.app, `${BASE}/queries?from=2025-01-01T00:00:00Z&to=2026-11-22T00:00:00Z`),
          400,
          'VALIDATION_ERROR',
          '/from',
        );
        expectError(await getJson(t.app, `${BASE}/overview?dimension=colour&value=red`), 400, 'VALIDATION_ERROR', '/dimension');
        expectError(await getJson(t.app, `${BASE}/overview?dimension=language`), 400, 'VALIDATION_ERROR', '/value');
        expectError(await getJson(t.app, `${BASE}/queries?sort=popularity`), 400, 'VALIDATION_ERROR', '/sort');
        expectError(await getJson(t.app, `${BASE}/queries?limit=201`), 400, 'VALIDATION_ERROR', '/limit');
        expectError(await getJson(t.app, `${BASE}/queries?cursor=nope`), 400, 'VALIDATION_ERROR', '/cursor');
        expectError(await getJson(t.app, `${BASE}/overview?from=yesterday`), 400, 'VALIDATION_ERROR', '/from');
        expectError(await getJson(t.app, `${BASE}/queries/unknown?${WINDOW}`), 404, 'NOT_FOUND');
        // A 256-character hash of 4-byte characters (3 072 characters percent-encoded) reaches the route; 257 is the schema's 400.
        const longest = encodeURIComponent('😀'.repeat(256));
        expect(longest.length).toBe(3072);
        expectError(await getJson(t.app, `${BASE}/queries/${longest}?${WINDOW}`), 404, 'NOT_FOUND');
        expectError(await getJson(t.app, `${BASE}/queries/${'x'.repeat(257)}?${WINDOW}`), 400, 'VALIDATION_ERROR', '/queryHash');
        expectError(await getJson(t.app, `${BASE}/queries/shoes?${WINDOW}&model=no-such-model`), 404, 'NOT_FOUND');
      });
    });
  });
});
