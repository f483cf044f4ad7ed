import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLICKS_DEBIASING, CLICKS_RANKER_ID } from '../../src/demo/models.js';
import { parseDemoOptions } from '../../src/demo/options.js';
import { runDemo, type DemoSummary } from '../../src/demo/run-demo.js';
import { spawnService, type ServiceProcess } from '../support/service-process.js';

/**
 * The demo against a service started on its own (not by the demo), with API keys: the demo
 * reaches it only through --url and --key, so it can only use the public HTTP API. A short seeded
 * run in compressed time must end with trained models and an experiment with results.
 */
describe('searchloop demo --url against a separately started service', () => {
  let service: ServiceProcess;
  let url: string;
  let dir: string;
  let summary: DemoSummary;
  const lines: string[] = [];
  const KEY = 'demo-test-admin-key-01';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-demo-'));
    service = await spawnService({
      env: { DATABASE_URL: `sqlite:${path.join(dir, 'service.db')}`, SEARCHLOOP_API_KEYS: `${KEY}:admin` },
      readyPath: '/readyz',
    });
    url = `${service.url}/`;
    const options = parseDemoOptions(['--url', url, '--key', KEY, '--seed', '7', '--rate', '25', '--warmup', '300', '--ship']);
    summary = await runDemo(
      { ...options, duration: 50, days: 3, speed: (3 * 86_400) / 50, queries: 30, exit: true },
      {
        print: (line) => lines.push(line),
        progress: () => {},
      },
    );
  }, 150_000);

  afterAll(async () => {
    await service?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints the dashboard URL first', () => {
    expect(lines[0]).toBe(`Dashboard: ${url}`);
  });

  it('sends its traffic without being throttled or refused', () => {
    expect(summary.lastError).toBeUndefined();
    expect(summary.sessions).toBeGreaterThan(600);
    expect(summary.throttled).toBe(0);
    expect(summary.failedRequests).toBe(0);
  });

  it('ends with the default click model and a ranker trained', async () => {
    expect(summary.clickModel).toMatchObject({ modelId: 'default', status: 'ready' });
    expect(summary.ranker).toMatchObject({ modelId: 'demo-ranker', status: 'ready' });
    expect(summary.ranker!.activeVersion).toBeGreaterThanOrEqual(1);
    expect(summary.ndcg!.queries).toBe(30);
  });

  it('trains the ranker from clicks beside it, the debiasing mode in its version metrics', () => {
    expect(summary.clicksRanker).toMatchObject({ modelId: CLICKS_RANKER_ID, status: 'ready' });
    expect(summary.clicksRanker!.activeVersion).toBeGreaterThanOrEqual(1);
    const metrics = summary.clicksRanker!.metrics as { training: any; heldOut: any };
    expect(metrics.training).toMatchObject({ data: 'clicks', debiasing: CLICKS_DEBIASING });
    expect(metrics.heldOut.clicks.sessions).toBeGreaterThan(0);
    expect(summary.clicksNdcg!.queries).toBe(30);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^Ranker ${CLICKS_RANKER_ID} \\(clicks, ${CLICKS_DEBIASING}\\): ready, version \\d+; held-out ips-ndcg@10`),
      ),
    );
  });

  it('tests the two learned rankers against each other and prints the outcome as the API reports it', async () => {
    const duel = summary.experiments.find((e) => e.headToHead)!;
    expect(duel).toMatchObject({ type: 'interleaving' });
    const response = await fetch(`${url}api/nous/ab-testing/experiments/${duel.experimentId}/results`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    const results = (await response.json()).data;
    const pair = results.interleaving.pairs[0];
    expect([pair.variantId, pair.opponentVariantId]).toEqual(['judgments', 'clicks']);
    // Traffic reached it (a quarter of the layer), and the summary carries the API's counts.
    expect(pair.queries).toBeGreaterThan(0);
    expect(duel.pair).toMatchObject({ queries: pair.queries, wins: pair.wins, losses: pair.losses, share: pair.share });
    const words = lines.find((l) => l.startsWith('  Head to head'));
    expect(words).toBeDefined();
    if (pair.share !== null) expect(words).toMatch(/ won \d+ of \d+ decided queries .* — (significant|not significant)/);
    else expect(words).toMatch(/no query decided yet/);
  });

  it('predicts the ranker and the deliberately worse candidate offline before testing, the worse one lower', () => {
    expect(summary.predictions.map((p) => [p.modelId, p.status])).toEqual([
      ['demo-ranker', 'done'],
      ['demo-cheapest-first', 'done'],
    ]);
    const [ranker, worse] = summary.predictions;
    expect(ranker!.summary).toMatch(/^predicted MRR /);
    expect(worse!.mrr!.estimate).toBeLessThan(ranker!.mrr!.estimate);
    expect(lines.some((l) => l.includes('Predicted offline, before any user saw them'))).toBe(true);
  });

  it('ends with an experiment whose results exist, as the API reports them', async () => {
    expect(summary.experiments.length).toBeGreaterThanOrEqual(1);
    const ab = summary.experiments.find((e) => e.type === 'ab')!;
    const response = await fetch(`${url}api/nous/ab-testing/experiments/${ab.experimentId}/results`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    const results = (await response.json()).data;
    // --ship concluded it when the ranker won; else it keeps running.
    expect(results.status).toBe(summary.ship?.shipped ? 'concluded' : 'running');
    expect(results.metrics.map((m: { metric: string }) => m.metric)).toEqual([
      'mrr',
      'abandonment_rate',
      'satisfied_click_rate',
      'conversion_rate',
    ]);
    const units = results.metrics[0].variants.map((v: { units: number }) => v.units);
    // Both arms exposed: about 300 each on a quiet machine, 28 on a 2-core one at load average 16 (how long training takes decides).
    expect(Math.min(...units)).toBeGreaterThan(10);
    expect(results.metrics[0].comparisons[0].pValue).toEqual(expect.any(Number));
    expect(ab.metrics[0]!.pValue).toBe(results.metrics[0].comparisons[0].pValue);
  });

  it('--ship concludes the A/B test when the ranker won and moves production to it, or ships nothing and says why', async () => {
    const ab = summary.experiments.find((e) => e.type === 'ab')!;
    expect(summary.ship).toMatchObject({ experimentId: ab.experimentId, shipped: expect.any(Boolean), reason: expect.any(String) });
    const get = (p: string) => fetch(`${url}${p}`, { headers: { authorization: `Bearer ${KEY}` } });
    const alias = await get('api/nous/learn/aliases/production');
    const experiment = (await (await get(`api/nous/ab-testing/experiments/${ab.experimentId}`)).json()).data;
    if (summary.ship!.shipped) {
      const view = (await alias.json()).data;
      expect(view).toMatchObject({ alias: 'production', modelId: 'demo-ranker' });
      expect(experiment.conclusion.promotion).toMatchObject({ alias: 'production', modelId: 'demo-ranker', version: view.version });
      expect(summary.ship!.alias).toEqual({ alias: 'production', from: null, to: { modelId: 'demo-ranker', version: view.version } });
      expect(lines).toContain(`  alias "production": the engine's original order → v${view.version} of demo-ranker`);
    } else {
      expect(alias.status).toBe(404);
      expect(experiment.status).toBe('running');
      expect(lines.some((l) => l.startsWith('--ship: the ranker did not win'))).toBe(true);
    }
  });
});
