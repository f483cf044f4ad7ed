import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DIR } from '../../src/http/dashboard.js';
import { expectError, request } from '../support/http.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const KEY = 'sl_read_dashboard_0123456789';

/** A stand-in build: what `npm run build:web` writes, small enough to check byte for byte. */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  const index =
    '<!doctype html><html><head><script type="module" src="/assets/app-1234.js"></script></head><body><div id="root"></div></body></html>';
  fs.writeFileSync(path.join(dir, 'index.html'), index);
  fs.writeFileSync(path.join(dir, 'index.html.gz'), zlib.gzipSync(index));
  fs.writeFileSync(path.join(dir, 'assets/app-1234.js'), 'console.log("dashboard");');
  fs.writeFileSync(path.join(dir, 'assets/app-1234.js.gz'), zlib.gzipSync('console.log("dashboard");'));
  return dir;
}

describe('the dashboard served at /', () => {
  let dir: string;
  let t: TestApp;
  let keyed: TestApp;
  beforeAll(async () => {
    dir = fakeBuild();
    t = await buildTestApp('sqlite', { dashboardDir: dir });
    keyed = await buildTestApp('sqlite', { dashboardDir: dir, envApiKeys: [{ key: KEY, scope: 'read' }] });
  });
  afterAll(async () => {
    await t?.close();
    await keyed?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html at / with a content security policy, revalidated on every visit', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('serves hashed assets compressed and immutable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe('console.log("dashboard");');
  });

  it('answers deep links of the app with index.html (GET or HEAD that accepts HTML), and nothing else', async () => {
    for (const url of ['/experiments', '/experiments/01HXYZ', '/models/default?tab=versions', '/settings']) {
      const res = await t.app.inject({ method: 'GET', url, headers: HTML });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root">');
      expect(res.headers['content-security-policy'], url).toBeDefined();
    }
    expect((await t.app.inject({ method: 'HEAD', url: '/experiments', headers: HTML })).statusCode).toBe(200);
    // Not a navigation: a script asking for JSON, another method, or a missing asset stays a 404 envelope.
    expectError(await request(t.app, { method: 'GET', url: '/experiments', headers: { accept: 'application/json' } }), 404, 'NOT_FOUND');
    expectError(await request(t.app, { method: 'GET', url: '/experiments' }), 404, 'NOT_FOUND');
    expectError(await request(t.app, { method: 'POST', url: '/experiments', headers: HTML }), 404, 'NOT_FOUND');
    expectError(await request(t.app, { method: 'GET', url: '/assets/missing-999.js', headers: HTML }), 404, 'NOT_FOUND');
  });

  it('leaves the API, the docs and the system paths alone: an unknown /api route is the 404 envelope even for a browser', async () => {
    for (const url of ['/api/nothing/here', '/api/cortex/feedback/x/y', '/api', '/openapi.json/x', '/metrics/x', '/healthz/x']) {
      const res = await request(t.app, { method: 'GET', url, headers: HTML });
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body.error.message).toContain(url.split('?')[0]);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/system', headers: HTML })).json().success).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/openapi.json', headers: HTML })).json().openapi).toMatch(/^3\./);
    const docs = await t.app.inject({ method: 'GET', url: '/docs/', headers: HTML });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).not.toContain('<div id="root">');
    expect((await t.app.inject({ method: 'GET', url: '/healthz', headers: HTML })).json()).toEqual({
      success: true,
      data: { status: 'ok' },
    });
  });

  it('hides the dashboard routes from the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/') && !['/healthz', '/readyz'].includes(p))).toEqual([]);
  });

  it('with API keys, the files are public (they hold no data) but every API route still needs a key', async () => {
    expect((await keyed.app.inject({ method: 'GET', url: '/', headers: HTML })).statusCode).toBe(200);
    expect((await keyed.app.inject({ method: 'GET', url: '/experiments/x', headers: HTML })).statusCode).toBe(200);
    expect((await keyed.app.inject({ method: 'GET', url: '/assets/app-1234.js' })).statusCode).toBe(200);
    expectError(await request(keyed.app, { method: 'GET', url: '/api/system', headers: HTML }), 401, 'UNAUTHORIZED');
    expectError(await request(keyed.app, { method: 'GET', url: '/api/nothing', headers: HTML }), 401, 'UNAUTHORIZED');
    expectError(await request(keyed.app, { method: 'GET', url: '/nothing' }), 401, 'UNAUTHORIZED');
    const withKey = await request(keyed.app, { method: 'GET', url: '/api/nothing', headers: { ...HTML, authorization: `Bearer ${KEY}` } });
    expectError(withKey, 404, 'NOT_FOUND');
  });

  it('by default serves web/dist of this repository (what npm run build:web writes)', () => {
    expect(path.resolve(DASHBOARD_DIR)).toBe(path.resolve('web/dist'));
  });

  it('without a build, / says how to build the dashboard and the API keeps working', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-web-empty-'));
    const bare = await buildTestApp('sqlite', { dashboardDir: empty });
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/', headers: HTML });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('npm run build:web');
      expectError(await request(bare.app, { method: 'GET', url: '/api/nothing', headers: HTML }), 404, 'NOT_FOUND');
      expect((await bare.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await bare.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
