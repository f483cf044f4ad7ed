import { expect, it } from 'vitest';
import { expectError, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

// POST /api/nous/rank parses with the schema-bound parser and checks its feature maps in the handler
// (http/json-parser.ts, ranking/rank-features.ts): the same 400s as Ajv's, and no prototype pollution.
describeOnEveryDatabase('rank body checks', (kind) => {
  const t = useTestApp(kind);
  const send = (payload: string) =>
    request(t.app, { method: 'POST', url: '/api/nous/rank', payload, headers: { 'content-type': 'application/json' } });
  const body = (features: unknown) =>
    JSON.stringify({
      unitId: 'u',
      queryId: 'q',
      results: [
        { resultId: 'a', features: { f: 1 } },
        { resultId: 'b', features },
      ],
    });

  it('answers a 400 naming /results/<i>/features/<name> for a value that is not a finite number, or too many names', async () => {
    expectError(await send(body({ f: 'high' })), 400, 'VALIDATION_ERROR', '/results/1/features/f');
    expectError(await send(body({ ok: 2, 'a/b': null })), 400, 'VALIDATION_ERROR', '/results/1/features/a~1b');
    const infinite = await send(body({ f: 1 }).replace('"features":{"f":1}}]', '"features":{"g":1e999}}]'));
    expectError(infinite, 400, 'VALIDATION_ERROR', '/results/1/features/g');
    expect(infinite.body.error.details[0].message).toBe('must be a finite number');
    const many = Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`f${i}`, i]));
    expectError(await send(body(many)), 400, 'VALIDATION_ERROR', '/results/1/features');
    expectError(await send(body([1, 2])), 400, 'VALIDATION_ERROR');
    expect((await send(body({ f: 2, g: -0.5 }))).statusCode).toBe(200);
  });

  it('keeps the JSON envelope errors: empty and malformed bodies', async () => {
    expectError(await send(''), 400, 'VALIDATION_ERROR');
    expectError(await send('{"unitId":'), 400, 'VALIDATION_ERROR', '/');
  });

  it('cannot pollute a prototype with __proto__ or constructor keys anywhere in the body', async () => {
    const proto = '{"polluted":"yes"}';
    const bodies = [
      `{"__proto__":${proto},"unitId":"u","queryId":"q","results":[{"resultId":"a"}]}`,
      `{"unitId":"u","queryId":"q","results":[{"resultId":"a","__proto__":${proto}}]}`,
      `{"unitId":"u","queryId":"q","results":[{"resultId":"a","features":{"__proto__":${proto}}}]}`,
      `{"unitId":"u","queryId":"q","results":[{"resultId":"a","features":{"__proto__":1}}]}`,
      `{"unitId":"u","queryId":"q","results":[{"resultId":"a"}],"attributes":{"__proto__":${proto}}}`,
      `{"unitId":"u","queryId":"q","results":[{"resultId":"a"}],"attributes":{"\\u005f_proto__":"x"}}`,
      `{"unitId":"u","queryId":"q","results":[{"resultId":"a"}],"context":{"__proto__":${proto},"constructor":{"prototype":${proto}}}}`,
    ];
    for (const payload of bodies) {
      const res = await send(payload);
      expect(res.statusCode, payload).toBeLessThan(500);
      expect(({} as Record<string, unknown>).polluted, payload).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>).polluted, payload).toBeUndefined();
    }
    // Unknown fields stay 400s, __proto__ included.
    expectError(await send(bodies[0]!), 400, 'VALIDATION_ERROR', '/__proto__');
    expectError(await send(bodies[2]!), 400, 'VALIDATION_ERROR', '/results/0/features/__proto__');
  });
});
