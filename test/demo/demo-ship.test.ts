import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/demo/api-client.js';
import type { ExperimentReport } from '../../src/demo/experiments.js';
import { parseDemoOptions } from '../../src/demo/options.js';
import { decideWinner, formatShipOutcome, nextSteps, shipWinner } from '../../src/demo/ship.js';
import { chooseTarget } from '../../src/demo/target.js';

type Metric = ExperimentReport['metrics'][number];
const metric = (name: string, lift: number, significant: boolean, improved: boolean | null): Metric => ({
  metric: name,
  values: {},
  relativeLift: lift,
  pValue: significant ? 0.001 : 0.4,
  adjustedPValue: significant ? 0.002 : 0.5,
  significant,
  improved,
});
const report = (metrics: Metric[], trustworthy = true): ExperimentReport => ({
  experimentId: 'exp-1',
  name: 'Demo · A/B',
  type: 'ab',
  summary: '',
  trustworthy,
  metrics,
  results: {},
});
const WINNING = report([
  metric('mrr', 0.16, true, true),
  metric('abandonment_rate', -0.26, true, true),
  metric('conversion_rate', 0.02, false, null),
]);

describe('the demo decides whether the ranker won from the A/B results', () => {
  it('ships when mrr improved significantly and no metric is significantly worse', () => {
    expect(decideWinner(WINNING)).toEqual({
      winner: 'ranker',
      reason: 'significantly better on mrr +16.0 %, abandonment_rate -26.0 %, worse on none',
    });
  });
  it('ships nothing when the results are untrustworthy, a metric is worse, or mrr is not significant', () => {
    expect(decideWinner(report(WINNING.metrics, false)).winner).toBeNull();
    const worse = decideWinner(report([metric('mrr', 0.1, true, true), metric('conversion_rate', -0.2, true, false)]));
    expect(worse).toEqual({ winner: null, reason: 'significantly worse on conversion_rate (-20.0 %)' });
    expect(decideWinner(report([metric('mrr', 0.03, false, null)])).reason).toBe(
      'mrr, the primary metric, is not significantly better (lift +3.0 %)',
    );
  });
  it('prints where to ship it and where production is shown', () => {
    const lines = nextSteps('http://127.0.0.1:3000/', WINNING).join('\n');
    expect(lines).toContain('open http://127.0.0.1:3000/experiments/exp-1 and ship the winner with Conclude');
    expect(lines).toContain('then see http://127.0.0.1:3000/production');
    expect(lines).toContain('--ship');
  });
});

describe('--ship against a stand-in service', () => {
  const received: { method: string; url: string; body: any }[] = [];
  let server: http.Server;
  let api: ApiClient;
  // What the stand-in answers: a conclusion that moved production, and the alias it then serves.
  let conclusion: Record<string, unknown> = {
    decision: 'ship',
    summary: 'alias "production" moved from the engine\'s original order to v2 of demo-ranker',
    promotion: { alias: 'production', modelId: 'demo-ranker', version: 2, from: null },
  };
  let aliasExists = true;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, body: text ? JSON.parse(text) : undefined });
        if (!req.url!.endsWith('/conclude') && !aliasExists) {
          res.writeHead(404, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message: 'no alias production', details: [] } }));
        }
        const data = req.url!.endsWith('/conclude')
          ? { status: 'concluded', conclusion }
          : { alias: 'production', modelId: 'demo-ranker', version: 2, servingVersion: 2 };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: true, data }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('concludes with ship and the ranker, then reads the alias move back', async () => {
    const outcome = await shipWinner(api, WINNING);
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/nous/ab-testing/experiments/exp-1/conclude',
      'GET /api/nous/learn/aliases/production',
    ]);
    expect(received[0]!.body).toMatchObject({ decision: 'ship', winnerVariantId: 'ranker' });
    expect(outcome.alias).toEqual({ alias: 'production', from: null, to: { modelId: 'demo-ranker', version: 2 } });
    expect(formatShipOutcome(outcome)).toEqual([
      `--ship: concluded the A/B test with ship, winner "ranker" (${decideWinner(WINNING).reason}).`,
      `  alias "production": the engine's original order → v2 of demo-ranker`,
    ]);
  });

  it("without a promotion, prints the conclusion's own sentence on what serves", async () => {
    received.length = 0;
    const summary =
      'no alias moved: nothing serves "ranker" (v2 of demo-ranker) now; searches outside experiments keep the engine\'s original order';
    conclusion = { decision: 'ship', summary };
    aliasExists = false;
    const outcome = await shipWinner(api, WINNING);
    expect(received.map((r) => r.url)).toEqual(['/api/nous/ab-testing/experiments/exp-1/conclude', '/api/nous/learn/aliases/production']);
    expect(outcome.alias).toBeUndefined();
    expect(formatShipOutcome(outcome)[1]).toBe(`  ${summary}`);
  });

  it('sends nothing when the ranker did not win, and says so', async () => {
    received.length = 0;
    const outcome = await shipWinner(api, report([metric('mrr', 0.01, false, null)]));
    expect(received).toEqual([]);
    expect(formatShipOutcome(outcome)[0]).toMatch(/^--ship: the ranker did not win \(mrr, the primary metric.*nothing shipped/);
  });
});

describe('where the demo sends, said up front', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-demo-target-'));
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("drives a service that answers, saying it writes into that service's database and how to start over", async () => {
    const target = await chooseTarget(parseDemoOptions(['--port', String(port)]));
    expect(target).toMatchObject({ kind: 'existing', url: `http://127.0.0.1:${port}/` });
    expect(target.notice.join(' ')).toMatch(/writes simulated feedback, models .* into ITS database/);
    expect(target.notice.join(' ')).toContain('searchloop demo --fresh');
  });

  it('--fresh empties its own file and starts on another port when the given one is taken', async () => {
    const database = path.join(dir, 'demo.db');
    fs.writeFileSync(database, 'old run');
    for (const suffix of ['-wal', '-analytics', '-analytics-wal']) fs.writeFileSync(`${database}${suffix}`, 'old run');
    const target = await chooseTarget(parseDemoOptions(['--fresh', '--port', String(port), '--database', database]));
    expect(target.kind).toBe('own');
    expect(target.kind === 'own' && target.port).not.toBe(port);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('demo.db'))).toEqual([]);
  });

  it("--fresh refuses the service's own database, and --url", async () => {
    await expect(chooseTarget(parseDemoOptions(['--fresh', '--database', 'data/searchloop.db']))).rejects.toThrow(/service's own database/);
    const own = path.join(dir, 'service.db');
    await expect(chooseTarget(parseDemoOptions(['--fresh', '--database', own]), { DATABASE_URL: `sqlite:${own}` })).rejects.toThrow(
      /service's own database/,
    );
    expect(() => parseDemoOptions(['--fresh', '--url', 'http://x/'])).toThrow(/cannot be combined with --url/);
  });
});
