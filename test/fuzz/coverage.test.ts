import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { allSpecs } from './support/routes.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

// Issue #6: a route added later without a fuzz generator fails here.
describe('fuzz coverage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('every operation of the OpenAPI document (but /docs) has a fuzz spec', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => !path.startsWith('/docs'))
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => METHODS.includes(m))
          .map((m) => `${m.toUpperCase()} ${path}`),
      );
    const fuzzed = new Set(allSpecs().map((s) => `${s.method} ${s.path}`));
    expect(documented.length).toBeGreaterThan(20);
    expect(
      documented.filter((op) => !fuzzed.has(op)),
      'operations without a fuzz spec in test/fuzz/support/routes.ts',
    ).toEqual([]);
  });

  it('every fuzz spec names a documented operation (or a hidden one on purpose)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const hidden = new Set(['GET /openapi.json']);
    const stale = allSpecs().filter((s) => !hidden.has(`${s.method} ${s.path}`) && !doc.paths[s.path]?.[s.method.toLowerCase()]);
    expect(stale.map((s) => `${s.method} ${s.path}`)).toEqual([]);
  });
});
