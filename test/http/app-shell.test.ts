import { expect, it } from 'vitest';
import { expectError, getJson, request } from '../support/http.js';
import { buildTestApp, useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';
import { VERSION } from '../../src/common/version.js';

describeOnEveryDatabase('HTTP shell', (kind) => {
  const t = useTestApp(kind);

  it('answers unknown routes with a 404 envelope', async () => {
    expectError(await getJson(t.app, '/api/nothing/here'), 404, 'NOT_FOUND');
    expectError(await request(t.app, { method: 'PUT', url: '/api/cortex/feedback' }), 404, 'NOT_FOUND');
  });

  it('echoes a sane X-Request-Id and puts it in the error envelope; makes one otherwise', async () => {
    const res = await request(t.app, { method: 'GET', url: '/nope', headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers['x-request-id']).toBe('trace-123');
    expect(res.body.error.requestId).toBe('trace-123');
    const made = await request(t.app, { method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('healthz and readyz report up when the database answers', async () => {
    expect((await getJson(t.app, '/healthz')).body).toEqual({ success: true, data: { status: 'ok' } });
    expect((await getJson(t.app, '/readyz')).body).toEqual({ success: true, data: { status: 'ready', database: 'up' } });
  });

  it('GET /api/system names the version, the database kind and whether keys are required', async () => {
    const res = await getJson(t.app, '/api/system');
    expect(res.body).toEqual({ success: true, data: { version: VERSION, database: kind, authentication: 'open' } });
    const keyed = await buildTestApp(kind, { envApiKeys: [{ key: 'sl_read_0123456789abcdef', scope: 'read' }] });
    try {
      expectError(await getJson(keyed.app, '/api/system'), 401, 'UNAUTHORIZED');
      const withKey = await request(keyed.app, {
        method: 'GET',
        url: '/api/system',
        headers: { authorization: 'Bearer sl_read_0123456789abcdef' },
      });
      expect(withKey.body.data.authentication).toBe('keys');
    } finally {
      await keyed.close();
    }
  });

  it('serves an OpenAPI 3 document naming every route, and the docs page', async () => {
    const doc = await getJson(t.app, '/openapi.json');
    expect(doc.statusCode).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/cortex/feedback',
      '/api/cortex/feedback/{feedbackId}',
      '/api/nous/learn/models',
      '/api/nous/learn/models/{modelId}',
      '/api/nous/ab-testing/experiments',
      '/api/nous/ab-testing/experiments/{experimentId}',
      '/healthz',
      '/readyz',
    ]) {
      expect(Object.keys(doc.body.paths)).toContain(path);
    }
    const post = doc.body.paths['/api/cortex/feedback'].post;
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '413', '415']));
    expect(doc.body.components.schemas.ErrorEnvelope).toBeDefined();
    const page = await request(t.app, { method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(String(page.body)).toContain('<html');
  });

  it('readyz turns 503 UNAVAILABLE when the database is gone', async () => {
    const other = await buildTestApp(kind);
    await other.database.close();
    expectError(await getJson(other.app, '/readyz'), 503, 'UNAVAILABLE');
    await other.app.close();
    await other.testDatabase.drop();
  });
});
