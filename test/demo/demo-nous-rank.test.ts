import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/demo/api-client.js';
import { probeCapabilities, startExperiments } from '../../src/demo/experiments.js';
import { CLICKS_RANKER_ID } from '../../src/demo/models.js';
import { buildCatalogue } from '../../src/demo/world/catalogue.js';
import { planSession } from '../../src/demo/world/session.js';
import { firstPage } from '../../src/demo/ranking.js';

/**
 * The demo's side of POST /api/nous/rank and interleaving experiments (issue 10's shapes), against
 * a stand-in server that records what it receives: the real routes are being built elsewhere, and
 * until they land the demo uses assign and the model rank route (covered by demo-run.test.ts).
 */
describe('the demo with POST /api/nous/rank and interleaving', () => {
  const received: { method: string; url: string; body: any }[] = [];
  let server: http.Server;
  let api: ApiClient;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const body = text ? JSON.parse(text) : undefined;
        received.push({ method: req.method!, url: req.url!, body });
        const send = (status: number, data: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(req.url === '/openapi.json' ? data : { success: true, data }));
        };
        if (req.url === '/openapi.json')
          return send(200, {
            paths: { '/api/nous/rank': {}, '/api/nous/ab-testing/experiments': {} },
            components: { schemas: { Interleaving: { enum: ['team-draft', 'team-draft-multileave'], type: ['ab', 'interleaving'] } } },
          });
        if (req.url === '/api/nous/rank') {
          const results = [...body.results].reverse().map((r: { resultId: string }, i: number) => ({ resultId: r.resultId, rank: i + 1 }));
          return send(200, { queryId: body.queryId, results, served: { source: 'experiment', experimentId: 'e2', variantId: 'ranker' } });
        }
        if (req.url === '/api/nous/ab-testing/experiments')
          return send(201, { experimentId: `e${received.filter((r) => r.url === req.url).length}` });
        return send(200, {});
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('reads both capabilities from /openapi.json', async () => {
    expect(await probeCapabilities(api)).toEqual({ nousRank: true, interleaving: true });
  });

  it('starts a model-backed A/B test and a team-draft interleaving experiment in disjoint halves of one layer', async () => {
    const { experiments, ranking } = await startExperiments(api, { nousRank: true, interleaving: true }, 'test');
    expect(experiments.map((e) => [e.experimentId, e.type])).toEqual([
      ['e1', 'ab'],
      ['e2', 'interleaving'],
    ]);
    const created = received.filter((r) => r.url === '/api/nous/ab-testing/experiments').map((r) => r.body.configuration);
    expect(created[0].variants[1].model).toEqual({ modelId: 'demo-ranker' });
    expect(created[0].variants[0].model).toBeUndefined();
    expect(created[0].layer).toEqual({ id: 'demo-ranking', range: [0, 0.5] });
    // Concluding either with ship moves the production alias to the ranker.
    expect(created.map((c) => c.promote)).toEqual([{ alias: 'production' }, { alias: 'production' }]);
    expect(created[1]).toMatchObject({
      type: 'interleaving',
      interleaving: { method: 'team-draft', depth: 10 },
      layer: { id: 'demo-ranking', range: [0.5, 1] },
    });
    expect(received.filter((r) => r.url.endsWith('/start')).map((r) => r.url)).toEqual([
      '/api/nous/ab-testing/experiments/e1/start',
      '/api/nous/ab-testing/experiments/e2/start',
    ]);

    // One call per search, with the engine's first page; the page shown is the service's order.
    const catalogue = buildCatalogue({ seed: 1, queries: 5, docsPerQuery: 20 });
    const session = planSession(catalogue, 1, 0, 'demo-t');
    const state = await ranking.enter(session);
    const search = session.searches[0]!;
    const shown = await state.order(search);
    const call = received.at(-1)!;
    expect(call.url).toBe('/api/nous/rank');
    expect(call.body).toMatchObject({ unitId: 'demo-t-0', queryId: search.queryId, queryHash: search.query.queryHash });
    expect(call.body.results).toHaveLength(10);
    expect(shown.map((d) => d.resultId)).toEqual(
      firstPage(search)
        .map((d) => d.resultId)
        .reverse(),
    );
    expect(state.arm).toBe('e2:ranker');
  });

  it('with the clicks ranker trained, adds a head-to-head interleaving of the two learned rankers in the top quarter of the layer', async () => {
    received.length = 0;
    const { experiments } = await startExperiments(api, { nousRank: true, interleaving: true }, 'test', { headToHead: true });
    expect(experiments.map((e) => [e.experimentId, e.type, e.headToHead ?? false])).toEqual([
      ['e1', 'ab', false],
      ['e2', 'interleaving', false],
      ['e3', 'interleaving', true],
    ]);
    const created = received.filter((r) => r.url === '/api/nous/ab-testing/experiments').map((r) => r.body.configuration);
    // Disjoint slices: the service lets one ranking experiment decide a unit's query.
    expect(created.map((c) => c.layer)).toEqual([
      { id: 'demo-ranking', range: [0, 0.5] },
      { id: 'demo-ranking', range: [0.5, 0.75] },
      { id: 'demo-ranking', range: [0.75, 1] },
    ]);
    expect(created[2]).toMatchObject({ type: 'interleaving', interleaving: { method: 'team-draft', depth: 10 } });
    expect(created[2].variants.map((v: { id: string; model: unknown }) => [v.id, v.model])).toEqual([
      ['judgments', { modelId: 'demo-ranker' }],
      ['clicks', { modelId: CLICKS_RANKER_ID }],
    ]);
    // Shipping stays the A/B test's decision: the head-to-head moves no alias.
    expect(created[2].promote).toBeUndefined();
    expect(received.filter((r) => r.url.endsWith('/start')).map((r) => r.url)).toContain('/api/nous/ab-testing/experiments/e3/start');
  });
});
