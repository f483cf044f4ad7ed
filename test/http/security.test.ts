import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeysCommand } from '../../src/cli/keys-command.js';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/main.js';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { buildTestApp, type TestApp, useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const FEEDBACK = { sessionId: 's', feedback: [{ queryId: 'q', rating: 3 }] };
const EXPERIMENT = (name: string) => ({ name, configuration: { variants: [{ id: 'a' }, { id: 'b' }] } });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describeOnEveryDatabase('API keys', (kind) => {
  const t = useTestApp(kind);
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    for (const scope of ['ingest', 'read', 'admin'] as const)
      keys[scope] = (await t.container.auth.services.apiKeys.create(`${scope}-key`, scope)).key;
  });

  it('401 without a key or with an unknown one; probes and metrics stay public', async () => {
    expectError(await postJson(t.app, '/api/cortex/feedback', FEEDBACK), 401, 'UNAUTHORIZED');
    expectError(await postJson(t.app, '/api/cortex/feedback', FEEDBACK, bearer('sl_admin_not-a-real-key')), 401, 'UNAUTHORIZED');
    expectError(await getJson(t.app, '/api/nous/learn/models/x'), 401, 'UNAUTHORIZED');
    expectError(await getJson(t.app, '/openapi.json'), 401, 'UNAUTHORIZED');
    expect((await getJson(t.app, '/healthz')).statusCode).toBe(200);
    expect((await getJson(t.app, '/readyz')).statusCode).toBe(200);
    expect((await request(t.app, { method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });

  it('ingest may send feedback and assign, nothing else; read may read; admin may do all', async () => {
    expect((await postJson(t.app, '/api/cortex/feedback', FEEDBACK, bearer(keys.ingest!))).statusCode).toBe(201);
    expect((await postJson(t.app, '/api/cortex/feedback', FEEDBACK, { 'x-api-key': keys.ingest! })).statusCode).toBe(201);
    expect((await postJson(t.app, '/api/nous/ab-testing/assign', { unitId: 'u' }, bearer(keys.ingest!))).statusCode).toBe(200);
    expectError(await request(t.app, { method: 'GET', url: '/api/cortex/feedback', headers: bearer(keys.ingest!) }), 403, 'FORBIDDEN');
    expectError(await postJson(t.app, '/api/nous/ab-testing/experiments', EXPERIMENT('by-ingest'), bearer(keys.ingest!)), 403, 'FORBIDDEN');

    expect((await request(t.app, { method: 'GET', url: '/api/cortex/feedback', headers: bearer(keys.read!) })).statusCode).toBe(200);
    // Search analytics (issue 12): read scope, as every GET.
    for (const url of ['/api/cortex/analytics/overview', '/api/cortex/analytics/queries', '/api/cortex/analytics/queries/none']) {
      expectError(await request(t.app, { method: 'GET', url, headers: bearer(keys.ingest!) }), 403, 'FORBIDDEN');
      expect((await request(t.app, { method: 'GET', url, headers: bearer(keys.read!) })).statusCode).toBe(url.endsWith('none') ? 404 : 200);
    }
    expect(
      (await postJson(t.app, '/api/nous/ab-testing/power', { metric: 'ctr', baseline: 0.1, mde: 0.1 }, bearer(keys.read!))).statusCode,
    ).toBe(200);
    expectError(await postJson(t.app, '/api/cortex/feedback', FEEDBACK, bearer(keys.read!)), 403, 'FORBIDDEN');
    expectError(
      await request(t.app, { method: 'DELETE', url: '/api/cortex/feedback?sessionId=s', headers: bearer(keys.read!) }),
      403,
      'FORBIDDEN',
    );

    const created = await postJson(t.app, '/api/nous/ab-testing/experiments', EXPERIMENT('by-admin'), bearer(keys.admin!));
    expect(created.statusCode).toBe(201);
    expect((await postJson(t.app, '/api/cortex/feedback', FEEDBACK, bearer(keys.admin!))).statusCode).toBe(201);
    const events = await request(t.app, {
      method: 'GET',
      url: `/api/nous/ab-testing/experiments/${created.body.data.experimentId}/events`,
      headers: bearer(keys.read!),
    });
    expect(events.body.data.items[0].actor).toBe('admin-key');
  });

  it('a revoked key stops working', async () => {
    const { key } = await t.container.auth.services.apiKeys.create('short-lived', 'read');
    expect((await request(t.app, { method: 'GET', url: '/api/cortex/feedback', headers: bearer(key) })).statusCode).toBe(200);
    await t.container.auth.services.apiKeys.revoke('short-lived');
    expectError(await request(t.app, { method: 'GET', url: '/api/cortex/feedback', headers: bearer(key) }), 401, 'UNAUTHORIZED');
    const stored = await t.container.database.db.selectFrom('api_keys').select(['key_hash', 'prefix']).execute();
    expect(stored.some((k) => k.key_hash.includes(key) || key.includes(k.key_hash))).toBe(false);
  });
});

describe('keys from SEARCHLOOP_API_KEYS, CORS, rate limits and JSON depth', () => {
  let t: TestApp;
  beforeAll(async () => {
    const config = loadConfig({ SEARCHLOOP_API_KEYS: 'browser-ingest-key-0001:ingest,ops-admin-key-000001:admin' });
    t = await buildTestApp('sqlite', {
      envApiKeys: config.apiKeys,
      corsOrigins: ['https://shop.example.com'],
      rateLimitPerIp: 30,
      rateLimitPerKey: 5,
      rateLimitWindowMs: 60_000,
      maxJsonDepth: 10,
    });
  });
  afterAll(async () => t.close());

  it('accepts environment keys with their scopes', async () => {
    expect((await postJson(t.app, '/api/cortex/feedback', FEEDBACK, bearer('browser-ingest-key-0001'))).statusCode).toBe(201);
    expectError(
      await postJson(t.app, '/api/nous/ab-testing/experiments', EXPERIMENT('env'), bearer('browser-ingest-key-0001')),
      403,
      'FORBIDDEN',
    );
  });

  it('answers a browser preflight for the ingest route from an allowed origin only', async () => {
    const ok = await request(t.app, {
      method: 'OPTIONS',
      url: '/api/cortex/feedback',
      headers: {
        origin: 'https://shop.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(String(ok.headers['access-control-allow-headers'])).toContain('authorization');
    const other = await request(t.app, {
      method: 'OPTIONS',
      url: '/api/cortex/feedback',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses JSON nested deeper than MAX_JSON_DEPTH before parsing it', async () => {
    const deep = `{"sessionId":"s","feedback":[{"queryId":"q","rating":1,"metadata":{"customMetadata":{"a":${'['.repeat(12)}1${']'.repeat(12)}}}}]}`;
    expectError(await postJson(t.app, '/api/cortex/feedback', deep, bearer('ops-admin-key-000001')), 400, 'VALIDATION_ERROR', '/');
  });

  it('429 RATE_LIMITED with Retry-After once a key crosses its limit', async () => {
    const key = 'ops-admin-key-000001';
    let limited;
    for (let i = 0; i < 10 && !limited; i += 1) {
      const res = await request(t.app, { method: 'GET', url: '/api/cortex/feedback', headers: bearer(key) });
      if (res.statusCode === 429) limited = res;
    }
    expect(limited).toBeDefined();
    expectError(limited!, 429, 'RATE_LIMITED');
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited!.body.error.message).toContain('API key "env:ops-ad');
  });

  it('429 per client IP as well, even without a key', async () => {
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i += 1) status = (await postJson(t.app, '/api/cortex/feedback', FEEDBACK)).statusCode;
    expect(status).toBe(429);
  });
});

describe('open mode', () => {
  it('refuses to listen on a non-loopback address without keys unless SEARCHLOOP_ALLOW_OPEN=1', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'open-mode-'));
    const base = { PORT: '0', LOG_LEVEL: 'silent', HOST: '0.0.0.0', DATABASE_URL: `sqlite://${dir}/o.db` };
    await expect(startServer(loadConfig(base))).rejects.toThrow(/SEARCHLOOP_ALLOW_OPEN/);
    const server = await startServer(loadConfig({ ...base, SEARCHLOOP_ALLOW_OPEN: '1' }));
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the keys CLI creates a key once, lists it by prefix and revokes it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-cli-'));
    const config = loadConfig({ DATABASE_URL: `sqlite://${dir}/k.db` });
    let out = '';
    const write = (s: string) => void (out += s);
    expect(await runKeysCommand(['create', '--name', 'frontend', '--scope', 'ingest'], config, write)).toBe(0);
    const key = out.trim();
    expect(key).toMatch(/^sl_ingest_[\w-]{32}$/);
    out = '';
    expect(await runKeysCommand(['list'], config, write)).toBe(0);
    expect(out).toContain(`frontend\tingest\t${key.slice(0, 12)}…`);
    expect(out).not.toContain(key);
    expect(await runKeysCommand(['revoke', 'frontend'], config, write)).toBe(0);
    expect(await runKeysCommand(['create', '--name', 'x', '--scope', 'root'], config, write)).toBe(2);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
