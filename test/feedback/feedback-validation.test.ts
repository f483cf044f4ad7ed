import { describe, expect, it } from 'vitest';
import { expectError, postJson } from '../support/http.js';
import { buildTestApp, useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const URL = '/api/cortex/feedback';
const item = (over: Record<string, unknown> = {}) => ({ queryId: 'q1', rating: 3, ...over });
const withMeta = (meta: Record<string, unknown>) => ({ sessionId: 's1', feedback: [item({ metadata: meta })] });
const withCustom = (custom: Record<string, unknown>) => withMeta({ userAction: 'click', customMetadata: custom });

// Each case breaks one documented rule; the detail must name the field.
const badBodies: [string, unknown, string][] = [
  ['sessionId missing', { feedback: [item()] }, '/sessionId'],
  ['sessionId empty', { sessionId: '', feedback: [item()] }, '/sessionId'],
  ['sessionId too long', { sessionId: 'x'.repeat(257), feedback: [item()] }, '/sessionId'],
  ['sessionId not a string', { sessionId: 7, feedback: [item()] }, '/sessionId'],
  ['feedback missing', { sessionId: 's1' }, '/feedback'],
  ['feedback empty', { sessionId: 's1', feedback: [] }, '/feedback'],
  ['feedback over 1000 items', { sessionId: 's1', feedback: Array.from({ length: 1001 }, () => item()) }, '/feedback'],
  ['queryId missing', { sessionId: 's1', feedback: [{ rating: 3 }] }, '/feedback/0/queryId'],
  ['neither rating nor userAction', { sessionId: 's1', feedback: [{ queryId: 'q1', metadata: { resultId: 'd' } }] }, '/feedback/0'],
  ['rating above 5', { sessionId: 's1', feedback: [item({ rating: 5.5 })] }, '/feedback/0/rating'],
  ['rating below -1', { sessionId: 's1', feedback: [item({ rating: -1.01 })] }, '/feedback/0/rating'],
  ['rating as a string', { sessionId: 's1', feedback: [item({ rating: '5' })] }, '/feedback/0/rating'],
  ['rating null', { sessionId: 's1', feedback: [item({ rating: null })] }, '/feedback/0/rating'],
  ['timestamp without a zone', withMeta({ userAction: 'click', timestamp: '2026-01-01T10:00:00' }), '/feedback/0/metadata/timestamp'],
  ['timestamp not a date', withMeta({ userAction: 'click', timestamp: 'yesterday' }), '/feedback/0/metadata/timestamp'],
  [
    'timestamp 10 minutes ahead',
    withMeta({ userAction: 'click', timestamp: new Date(Date.now() + 600_000).toISOString() }),
    '/feedback/0/metadata/timestamp',
  ],
  ['position 0', withCustom({ position: 0 }), '/feedback/0/metadata/customMetadata/position'],
  ['position fractional', withCustom({ position: 1.5 }), '/feedback/0/metadata/customMetadata/position'],
  ['timeToClick negative', withCustom({ timeToClick: -1 }), '/feedback/0/metadata/customMetadata/timeToClick'],
  ['dwellTime negative', withCustom({ dwellTime: -5 }), '/feedback/0/metadata/customMetadata/dwellTime'],
  ['scrollDepth above 1', withCustom({ scrollDepth: 1.2 }), '/feedback/0/metadata/customMetadata/scrollDepth'],
  ['viewport width 0', withCustom({ viewport: { width: 0, height: 10 } }), '/feedback/0/metadata/customMetadata/viewport/width'],
  [
    'viewport unknown key',
    withCustom({ viewport: { width: 1, height: 1, depth: 1 } }),
    '/feedback/0/metadata/customMetadata/viewport/depth',
  ],
  ['unknown top-level key', { sessionId: 's1', feedback: [item()], extra: 1 }, '/extra'],
  ['unknown item key', { sessionId: 's1', feedback: [item({ score: 1 })] }, '/feedback/0/score'],
  ['unknown metadata key', withMeta({ userAction: 'click', colour: 'red' }), '/feedback/0/metadata/colour'],
  ['resultId too long', withMeta({ userAction: 'click', resultId: 'r'.repeat(257) }), '/feedback/0/metadata/resultId'],
  ['userAction empty', withMeta({ userAction: '' }), '/feedback/0/metadata/userAction'],
  [
    '33 extra customMetadata keys',
    withCustom(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i]))),
    '/feedback/0/metadata/customMetadata',
  ],
  ['extra customMetadata over 4 KiB', withCustom({ blob: 'x'.repeat(4100) }), '/feedback/0/metadata/customMetadata'],
  ['customMetadata deeper than 3', withCustom({ a: { b: { c: { d: 1 } } } }), '/feedback/0/metadata/customMetadata/a/b/c/d'],
  ['customMetadata constructor key', withCustom({ constructor: { x: 1 } }), '/feedback/0/metadata/customMetadata/constructor'],
  ['nested prototype key', withCustom({ a: { prototype: 1 } }), '/feedback/0/metadata/customMetadata/a/prototype'],
  ['features not numbers', withCustom({ features: { bm25: 'high' } }), '/feedback/0/metadata/customMetadata/features'],
  [
    'features over 256',
    withCustom({ features: Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`f${i}`, i])) }),
    '/feedback/0/metadata/customMetadata/features',
  ],
];

describeOnEveryDatabase('feedback validation', (kind) => {
  const t = useTestApp(kind);

  it.each(badBodies)('400 when %s', async (_name, body, path) => {
    const res = await postJson(t.app, URL, body);
    expectError(res, 400, 'VALIDATION_ERROR', path);
  });

  it('rejects a __proto__ key before it reaches any object', async () => {
    const raw = '{"sessionId":"s1","feedback":[{"queryId":"q","rating":1,"metadata":{"customMetadata":{"__proto__":{"polluted":true}}}}]}';
    const res = await postJson(t.app, URL, raw);
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('415 for a body that is not JSON', async () => {
    const res = await postJson(t.app, URL, 'sessionId=s1', { 'content-type': 'text/plain' });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('400 for malformed JSON and for an empty body', async () => {
    expectError(await postJson(t.app, URL, '{"sessionId": "s1", '), 400, 'VALIDATION_ERROR');
    expectError(await postJson(t.app, URL, ''), 400, 'VALIDATION_ERROR');
  });

  it('stores nothing when any item of a batch is invalid', async () => {
    const res = await postJson(t.app, URL, { sessionId: 'atomic', feedback: [item(), item({ rating: 9 })] });
    expectError(res, 400, 'VALIDATION_ERROR', '/feedback/1/rating');
    const list = await t.app.inject({ method: 'GET', url: `${URL}?sessionId=atomic` });
    expect(list.json().data.items).toHaveLength(0);
  });

  it('accepts the edges of every range', async () => {
    const res = await postJson(t.app, URL, {
      sessionId: 'x'.repeat(256),
      feedback: [
        item({ rating: -1 }),
        item({ rating: 5 }),
        {
          queryId: 'q',
          metadata: {
            userAction: 'impression',
            timestamp: new Date(Date.now() + 240_000).toISOString(),
            customMetadata: { position: 1, scrollDepth: 0, dwellTime: 0, timeToClick: 0, a: { b: { c: 1 } } },
          },
        },
        {
          queryId: 'q',
          metadata: {
            userAction: 'click',
            customMetadata: { scrollDepth: 1, ...Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${i}`, i])) },
          },
        },
        // 200 ranker features ride outside the 32-key / 4 KiB budget of client metadata.
        {
          queryId: 'q',
          metadata: {
            userAction: 'impression',
            customMetadata: { team: 'a', features: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`feature_${i}`, i / 7])) },
          },
        },
      ],
    });
    expect(res.statusCode, JSON.stringify(res.body)).toBe(201);
  });
});

describe('feedback body limit', () => {
  it('413 when the body is larger than BODY_LIMIT_BYTES', async () => {
    const t = await buildTestApp('sqlite', { bodyLimitBytes: 2048 });
    try {
      const res = await postJson(t.app, URL, { sessionId: 's', feedback: Array.from({ length: 100 }, () => item()) });
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    } finally {
      await t.close();
    }
  });
});
