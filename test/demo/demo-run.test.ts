import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const options = parseDemoOptions(['--url', url, '--key', KEY, '--seed', '7', '--rate', '25', '--warmup', '300']);
    summary = await runDemo(
      { ...options, duration: 40, days: 3, speed: (3 * 86_400) / 40, queries: 30, exit: true },
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

  it('ends with an experiment whose results exist, as the API reports them', async () => {
    expect(summary.experiments.length).toBeGreaterThanOrEqual(1);
    const ab = summary.experiments.find((e) => e.type === 'ab')!;
    const response = await fetch(`${url}api/nous/ab-testing/experiments/${ab.experimentId}/results`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    const results = (await response.json()).data;
    expect(results.status).toBe('running');
    expect(results.metrics.map((m: { metric: string }) => m.metric)).toEqual([
      'mrr',
      'abandonment_rate',
      'satisfied_click_rate',
      'conversion_rate',
    ]);
    const units = results.metrics[0].variants.map((v: { units: number }) => v.units);
    expect(Math.min(...units)).toBeGreaterThan(50);
    expect(results.metrics[0].comparisons[0].pValue).toEqual(expect.any(Number));
    expect(ab.metrics[0]!.pValue).toBe(results.metrics[0].comparisons[0].pValue);
  });
});
