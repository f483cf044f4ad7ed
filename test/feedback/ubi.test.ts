import { describe, expect, it } from 'vitest';
import type { ErrorDetail } from '../../src/common/errors.js';
import { checkUbiEvent, checkUbiQuery } from '../../src/feedback/ubi/ubi-rules.js';
import { expectError, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

type Doc = Record<string, any>;

const query = (n: number, hits: string[], extra: Doc = {}): Doc => ({
  application: 'primary-search',
  query_id: `uq-${n}`,
  client_id: `client-${n % 2}`,
  user_query: `  Red  Running Shoes ${n}`,
  timestamp: `2026-11-20T10:0${n}:00.000Z`,
  query_attributes: { page: 1, filters: { brand: ['acme'] } },
  object_id_field: 'sku',
  query_response_id: `resp-${n}`,
  query_response_hit_ids: hits,
  ...extra,
});

const event = (n: number, action: string, extra: Doc = {}): Doc => ({
  application: 'primary-search',
  action_name: action,
  query_id: `uq-${n % 3}`,
  session_id: `ubi-session-${n % 2}`,
  client_id: `client-${n % 2}`,
  user_id: 'u-1',
  timestamp: `2026-11-20T11:${String(n).padStart(2, '0')}:00.000Z`,
  message_type: 'CLICK_THROUGH',
  message: 'clicked a result',
  event_attributes: {
    object: { object_id: `sku-${n}`, object_id_field: 'sku', description: 'red shoe' },
    position: { ordinal: (n % 10) + 1 },
    dwell_time: 1200 + n,
    browser: 'firefox',
  },
  ...extra,
});

/** What each side must keep, per the mapping table. */
const mappedEvent = (d: Doc) => ({
  action_name: d.action_name,
  query_id: d.query_id,
  session: d.session_id ?? d.client_id,
  timestamp: Date.parse(d.timestamp),
  object_id: d.event_attributes?.object?.object_id,
  ordinal: d.event_attributes?.position?.ordinal,
  dwell_time: d.event_attributes?.dwell_time,
  rest: { ...d, action_name: 0, query_id: 0, session_id: 0, timestamp: 0, event_attributes: 0, searchloop_cursor: 0 },
  attributes: { ...d.event_attributes, object: { ...d.event_attributes?.object, object_id: 0 }, position: 0, dwell_time: 0 },
});
const mappedQuery = (d: Doc) => ({ ...d, timestamp: Date.parse(d.timestamp), searchloop_cursor: 0 });

/** JSON with keys sorted at every level: equal documents, equal text. */
const canon = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
const ndjson = (docs: Doc[]) => docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
const lines = (body: string) =>
  body
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Doc);

describe('UBI 1.3.0 rules (written from the specification)', () => {
  const cases: [string, 'event' | 'query', Doc, string][] = [
    ['event without action_name', 'event', { timestamp: '2026-01-01T00:00:00Z' }, '/action_name'],
    ['event without timestamp', 'event', { action_name: 'click' }, '/timestamp'],
    ['event with a bad timestamp', 'event', { action_name: 'click', timestamp: 'yesterday' }, '/timestamp'],
    ['action_name over 100 characters', 'event', { action_name: 'x'.repeat(101), timestamp: '2026-01-01T00:00:00Z' }, '/action_name'],
    ['session_id not a string', 'event', { action_name: 'click', timestamp: '2026-01-01T00:00:00Z', session_id: 7 }, '/session_id'],
    ['message over 1024', 'event', { action_name: 'click', timestamp: '2026-01-01T00:00:00Z', message: 'm'.repeat(1025) }, '/message'],
    [
      'event_attributes without position',
      'event',
      { action_name: 'click', timestamp: '2026-01-01T00:00:00Z', event_attributes: { object: { object_id: 'a' } } },
      '/event_attributes/position',
    ],
    [
      'position with neither ordinal nor xy',
      'event',
      { action_name: 'click', timestamp: '2026-01-01T00:00:00Z', event_attributes: { position: {} } },
      '/event_attributes/position',
    ],
    [
      'ordinal not an integer',
      'event',
      { action_name: 'click', timestamp: '2026-01-01T00:00:00Z', event_attributes: { position: { ordinal: 1.5 } } },
      '/event_attributes/position/ordinal',
    ],
    [
      'object without object_id',
      'event',
      { action_name: 'click', timestamp: '2026-01-01T00:00:00Z', event_attributes: { position: { ordinal: 1 }, object: {} } },
      '/event_attributes/object/object_id',
    ],
    [
      'object_id a float',
      'event',
      {
        action_name: 'click',
        timestamp: '2026-01-01T00:00:00Z',
        event_attributes: { position: { ordinal: 1 }, object: { object_id: 1.5 } },
      },
      '/event_attributes/object/object_id',
    ],
    ['query without user_query', 'query', { query_id: 'q' }, '/user_query'],
    ['hit ids not strings', 'query', { user_query: 'x', query_response_hit_ids: ['a', 3] }, '/query_response_hit_ids/1'],
    ['query_attributes not an object', 'query', { user_query: 'x', query_attributes: [1] }, '/query_attributes'],
  ];
  it.each(cases)('%s is refused at %s', (_name, kind, doc, path) => {
    const problems: ErrorDetail[] = [];
    expect((kind === 'event' ? checkUbiEvent : checkUbiQuery)(doc, '', problems)).toBe(false);
    expect(problems.map((p) => p.path)).toContain(path);
  });
  it('accepts every standard action_name (oneOf read as anyOf), xy positions, integer ids and zone-less timestamps', () => {
    for (const action of ['click_through', 'add_to_cart', 'click', 'watch', 'view', 'purchase', 'impression', 'my_own']) {
      const problems: ErrorDetail[] = [];
      const doc = {
        action_name: action,
        timestamp: '2018-11-13T20:20:39',
        event_attributes: { position: { xy: { x: 1, y: 2 } }, object: { object_id: 123 } },
      };
      expect(checkUbiEvent(doc, '', problems), JSON.stringify(problems)).toBe(true);
    }
  });
});

describeOnEveryDatabase('UBI in and out', (kind) => {
  const t = useTestApp(kind);

  it('round trip: UBI queries and events in → feedback → UBI out, equal on every mapped field; the output follows the UBI rules', async () => {
    const queries = [query(1, ['sku-1', 'sku-2', 'sku-3']), query(2, []), query(3, ['sku-9'], { session_id: 'ubi-session-0' })];
    const events = [
      event(1, 'click'),
      event(2, 'click_through'),
      event(3, 'add_to_cart'),
      event(4, 'watch'),
      event(5, 'impression', { event_attributes: { object: { object_id: 77 }, position: { xy: { x: 3, y: 4 } } } }),
      { action_name: 'purchase', query_id: 'uq-1', client_id: 'client-1', timestamp: '2026-11-20T12:00:00+02:00' },
    ];
    const q = await request(t.app, {
      method: 'POST',
      url: '/api/cortex/ubi/queries',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: ndjson(queries),
    });
    expect(q.statusCode, JSON.stringify(q.body)).toBe(201);
    expect(q.body.data).toMatchObject({ documents: 3, items: 5 });
    const e = await postJson(t.app, '/api/cortex/ubi/events', events);
    expect(e.statusCode, JSON.stringify(e.body)).toBe(201);
    expect(e.body.data).toMatchObject({ documents: 6, items: 6 });

    // The mapping onto feedback, as the table says.
    const stored = (await request(t.app, { method: 'GET', url: '/api/cortex/feedback?sessionId=ubi-session-1&limit=100' })).body.data.items;
    const click = stored.find((i: Doc) => i.metadata.resultId === 'sku-1');
    expect(click).toMatchObject({
      queryId: 'uq-1',
      sessionId: 'ubi-session-1',
      metadata: { userAction: 'click', timestamp: '2026-11-20T11:01:00.000Z', customMetadata: { position: 2, dwellTime: 1201 } },
    });
    const impressions = (await request(t.app, { method: 'GET', url: '/api/cortex/feedback?sessionId=client-1&limit=100' })).body.data.items;
    expect(
      impressions
        .filter((i: Doc) => i.metadata.userAction === 'impression')
        .map((i: Doc) => [i.metadata.resultId, i.metadata.customMetadata.position]),
    ).toEqual([
      ['sku-1', 1],
      ['sku-2', 2],
      ['sku-3', 3],
    ]);
    expect(impressions[0].metadata.queryHash).toBe('red running shoes 1');

    const out = await t.app.inject({ method: 'GET', url: '/api/cortex/feedback/export?format=ubi' });
    expect(out.statusCode).toBe(200);
    expect(out.headers['content-type']).toContain('application/x-ndjson');
    const docs = lines(out.body);
    const outQueries = docs.filter((d) => d.user_query !== undefined);
    const outEvents = docs.filter((d) => d.action_name !== undefined);
    // Stored per session, so compared as sets.
    const sorted = (docs: Doc[]) => docs.map(canon).sort();
    expect(sorted(outQueries.map(mappedQuery))).toEqual(sorted(queries.map(mappedQuery)));
    expect(sorted(outEvents.map(mappedEvent))).toEqual(sorted(events.map(mappedEvent)));
    expect(outEvents).toHaveLength(events.length);
    for (const [i, d] of docs.entries()) {
      const problems: ErrorDetail[] = [];
      const valid = d.user_query !== undefined ? checkUbiQuery(d, `/${i}`, problems) : checkUbiEvent(d, `/${i}`, problems);
      expect(valid, JSON.stringify(problems)).toBe(true);
    }
  });

  it('400s name the field of the document that breaks a rule, and nothing of the request is stored', async () => {
    const good = event(1, 'click', { session_id: 'ubi-refused' });
    const res = await postJson(t.app, '/api/cortex/ubi/events', [good, { ...good, timestamp: undefined }]);
    expectError(res, 400, 'VALIDATION_ERROR', '/1/timestamp');
    expectError(await postJson(t.app, '/api/cortex/ubi/events', { ...good, query_id: undefined }), 400, 'VALIDATION_ERROR', '/query_id');
    expectError(
      await postJson(t.app, '/api/cortex/ubi/events', { ...good, session_id: undefined, client_id: undefined }),
      400,
      'VALIDATION_ERROR',
      '/session_id',
    );
    expectError(
      await postJson(t.app, '/api/cortex/ubi/queries', [{ query_id: 'q', client_id: 'c' }]),
      400,
      'VALIDATION_ERROR',
      '/0/user_query',
    );
    const bad = await request(t.app, {
      method: 'POST',
      url: '/api/cortex/ubi/events',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: `${JSON.stringify(good)}\n{not json\n`,
    });
    expectError(bad, 400, 'VALIDATION_ERROR', '/1');
    const stored = (await request(t.app, { method: 'GET', url: '/api/cortex/feedback?sessionId=ubi-refused' })).body.data.items;
    expect(stored).toEqual([]);
  });

  it('an Idempotency-Key makes a retried UBI request store nothing twice', async () => {
    const docs = [event(1, 'click', { session_id: 'ubi-idem' }), event(2, 'click', { session_id: 'ubi-idem' })];
    const one = await postJson(t.app, '/api/cortex/ubi/events', docs, { 'idempotency-key': 'ubi-k1' });
    const two = await postJson(t.app, '/api/cortex/ubi/events', docs, { 'idempotency-key': 'ubi-k1' });
    expect(two.body.data.feedbackIds).toEqual(one.body.data.feedbackIds);
    expect((await request(t.app, { method: 'GET', url: '/api/cortex/feedback?sessionId=ubi-idem' })).body.data.items).toHaveLength(2);
  });

  it('exports our items as NDJSON and CSV, filtered by session and time, resumable by cursor', async () => {
    const feedback = Array.from({ length: 25 }, (_, i) => ({
      queryId: `eq-${i}`,
      rating: i % 5,
      metadata: {
        userAction: 'click',
        resultId: `d,${i}`,
        timestamp: `2026-11-20T0${Math.floor(i / 10)}:${String(i).padStart(2, '0')}:00Z`,
        customMetadata: { position: i + 1, note: 'a "quoted" one' },
      },
    }));
    expect((await postJson(t.app, '/api/cortex/feedback', { sessionId: 'exp-s', feedback })).statusCode).toBe(201);
    expect((await postJson(t.app, '/api/cortex/feedback', { sessionId: 'other-s', feedback: feedback.slice(0, 3) })).statusCode).toBe(201);

    const all = lines((await t.app.inject({ method: 'GET', url: '/api/cortex/feedback/export?format=ndjson&sessionId=exp-s' })).body);
    expect(all.map((l) => l.queryId)).toEqual(feedback.map((f) => f.queryId));
    const resumed = lines(
      (await t.app.inject({ method: 'GET', url: `/api/cortex/feedback/export?format=ndjson&sessionId=exp-s&cursor=${all[9]!.cursor}` }))
        .body,
    );
    expect(resumed.map((l) => l.queryId)).toEqual(feedback.slice(10).map((f) => f.queryId));
    const window = lines(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/cortex/feedback/export?format=ndjson&sessionId=exp-s&since=2026-11-20T01:00:00Z&until=2026-11-20T02:00:00Z',
        })
      ).body,
    );
    expect(window.map((l) => l.queryId)).toEqual(feedback.slice(10, 20).map((f) => f.queryId));

    const csv = await t.app.inject({ method: 'GET', url: '/api/cortex/feedback/export?format=csv&sessionId=exp-s' });
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = csv.body.trim().split('\n');
    expect(rows[0]).toBe(
      'sessionId,queryId,queryHash,resultId,position,userAction,timestamp,rating,dwellTime,engagementType,customMetadata,itemId,feedbackId,receivedAt,cursor',
    );
    expect(rows).toHaveLength(26);
    expect(rows[1]).toMatch(/^exp-s,eq-0,,"d,0",1,click,2026-11-20T00:00:00.000Z,0,,,"{""note"":""a \\""quoted\\"" one""}",/);

    expectError(await request(t.app, { method: 'GET', url: '/api/cortex/feedback/export?format=xml' }), 400, 'VALIDATION_ERROR', '/format');
    expectError(await request(t.app, { method: 'GET', url: '/api/cortex/feedback/export?since=soon' }), 400, 'VALIDATION_ERROR', '/since');
  });
});
