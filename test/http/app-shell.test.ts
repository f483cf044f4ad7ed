import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, getJson, request } from './support/http.js';
import { buildTestApp, type TestApp } from './support/test-app.js';
import { databaseKinds } from './support/test-database.js';

describe.each(databaseKinds())('HTTP shell on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(async () => t.close());

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
