import { expect, it } from 'vitest';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const URL = '/api/cortex/feedback';

const seedSubmission = {
  sessionId: 'session-abc',
  feedback: [
    {
      queryId: 'query-1',
      rating: 4.5,
      metadata: {
        userAction: 'click',
        timestamp: '2026-11-20T10:00:00.000Z',
        resultId: 'doc-42',
        queryHash: 'h-running-shoes',
        engagementType: 'organic',
        customMetadata: {
          searchType: 'keyword',
          position: 3,
          timeToClick: 1200,
          deviceType: 'mobile',
          viewport: { width: 390, height: 844 },
          scrollDepth: 0.4,
          dwellTime: 45000,
          category: 'shoes',
          language: 'en',
          experimentTag: 'x',
        },
      },
    },
  ],
};

describeOnEveryDatabase('feedback API', (kind) => {
  const t = useTestApp(kind);

  it('201 with feedbackId, processed and timestamp, and the items read back as sent', async () => {
    const res = await postJson(t.app, URL, seedSubmission);
    expect(res.statusCode).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data.processed).toBe(true);
    expect(res.body.data.feedbackId).toMatch(/^[0-9A-Z]{26}$/);
    expect(new Date(res.body.data.timestamp).toISOString()).toBe(res.body.data.timestamp);

    const back = await getJson(t.app, `${URL}/${res.body.data.feedbackId}`);
    expect(back.statusCode).toBe(200);
    expect(back.body.data.sessionId).toBe('session-abc');
    const stored = back.body.data.items[0];
    expect(stored.queryId).toBe('query-1');
    expect(stored.rating).toBe(4.5);
    expect(stored.metadata).toMatchObject({
      userAction: 'click',
      timestamp: '2026-11-20T10:00:00.000Z',
      resultId: 'doc-42',
      queryHash: 'h-running-shoes',
      engagementType: 'organic',
    });
    expect(stored.metadata.customMetadata).toEqual(seedSubmission.feedback[0]!.metadata.customMetadata);
    expect(stored.receivedAt).toBe(res.body.data.timestamp);
  });

  it('uses the receive time when an item has no timestamp, and keeps a zone offset as the same instant', async () => {
    const res = await postJson(t.app, URL, {
      sessionId: 'times',
      feedback: [
        { queryId: 'q', metadata: { userAction: 'impression' } },
        { queryId: 'q', metadata: { userAction: 'click', timestamp: '2026-11-20T12:00:00+02:00' } },
      ],
    });
    const back = await getJson(t.app, `${URL}/${res.body.data.feedbackId}`);
    expect(back.body.data.items[0].metadata.timestamp).toBe(res.body.data.timestamp);
    expect(back.body.data.items[1].metadata.timestamp).toBe('2026-11-20T10:00:00.000Z');
  });

  it('404 in the envelope for an unknown feedbackId', async () => {
    expectError(await getJson(t.app, `${URL}/01ARZ3NDEKTSV4RRFFQ69G5FAV`), 404, 'NOT_FOUND');
  });

  it('replays an Idempotency-Key retry without storing twice, and 409s a reused key with another body', async () => {
    const body = { sessionId: 'idem', feedback: [{ queryId: 'q', rating: 1 }] };
    const first = await postJson(t.app, URL, body, { 'idempotency-key': 'key-1' });
    const second = await postJson(t.app, URL, body, { 'idempotency-key': 'key-1' });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toEqual(first.body);
    const list = await getJson(t.app, `${URL}?sessionId=idem`);
    expect(list.body.data.items).toHaveLength(1);
    const other = await postJson(t.app, URL, { ...body, feedback: [{ queryId: 'q', rating: 2 }] }, { 'idempotency-key': 'key-1' });
    expectError(other, 409, 'CONFLICT', '/idempotency-key');
  });

  it('stores one copy when the same Idempotency-Key arrives 20 times at once', async () => {
    const body = {
      sessionId: 'idem-race',
      feedback: [
        { queryId: 'q', rating: 1 },
        { queryId: 'q', rating: 2 },
      ],
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => postJson(t.app, URL, body, { 'idempotency-key': 'race' })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.data.feedbackId)).size).toBe(1);
    const list = await getJson(t.app, `${URL}?sessionId=idem-race`);
    expect(list.body.data.items).toHaveLength(2);
  });

  it('pages through items with a cursor, oldest first, with filters', async () => {
    const feedback = Array.from({ length: 25 }, (_, i) => ({
      queryId: i % 2 === 0 ? 'even' : 'odd',
      metadata: { userAction: 'impression', timestamp: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString() },
    }));
    await postJson(t.app, URL, { sessionId: 'pages', feedback });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `${URL}?sessionId=pages&limit=10${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await getJson(t.app, url);
      expect(res.statusCode).toBe(200);
      seen.push(...res.body.data.items.map((i: { itemId: string }) => i.itemId));
      cursor = res.body.data.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(25);
    expect([...seen].sort()).toEqual(seen);

    // Newest first: the same items in reverse, also across pages.
    const newest: string[] = [];
    cursor = null;
    do {
      const url: string = `${URL}?sessionId=pages&order=newest&limit=10${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await getJson(t.app, url);
      expect(res.statusCode).toBe(200);
      newest.push(...res.body.data.items.map((i: { itemId: string }) => i.itemId));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(newest).toEqual([...seen].reverse());
    const firstOfEven = await getJson(t.app, `${URL}?sessionId=pages&queryId=even&order=newest&limit=1`);
    expect(firstOfEven.body.data.items[0].itemId).toBe(seen[24]);

    const even = await getJson(t.app, `${URL}?sessionId=pages&queryId=even&limit=1000`);
    expect(even.body.data.items).toHaveLength(13);
    const window = await getJson(t.app, `${URL}?sessionId=pages&since=2026-11-01T00:05:00Z&until=2026-11-01T00:10:00Z`);
    expect(window.body.data.items).toHaveLength(5);
  });

  it('400s bad list parameters, naming them', async () => {
    expectError(await getJson(t.app, `${URL}?limit=0`), 400, 'VALIDATION_ERROR', '/limit');
    expectError(await getJson(t.app, `${URL}?limit=1001`), 400, 'VALIDATION_ERROR', '/limit');
    expectError(await getJson(t.app, `${URL}?cursor=not-a-cursor`), 400, 'VALIDATION_ERROR', '/cursor');
    expectError(await getJson(t.app, `${URL}?since=last-week`), 400, 'VALIDATION_ERROR', '/since');
    expectError(await getJson(t.app, `${URL}?colour=red`), 400, 'VALIDATION_ERROR', '/colour');
    expectError(await getJson(t.app, `${URL}?order=recent`), 400, 'VALIDATION_ERROR', '/order');
  });

  it("erases a session's items and reports how many went, leaving other sessions alone", async () => {
    await postJson(t.app, URL, {
      sessionId: 'forget-me',
      feedback: [
        { queryId: 'q', rating: 1 },
        { queryId: 'q', rating: 2 },
      ],
    });
    await postJson(t.app, URL, { sessionId: 'forget-me', feedback: [{ queryId: 'q', rating: 3 }] });
    await postJson(t.app, URL, { sessionId: 'keep-me', feedback: [{ queryId: 'q', rating: 3 }] });
    const res = await request(t.app, { method: 'DELETE', url: `${URL}?sessionId=forget-me` });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toEqual({
      sessionId: 'forget-me',
      deletedItems: 3,
      deletedSubmissions: 2,
      removed: {
        feedbackItems: 3,
        feedbackSubmissions: 2,
        idempotencyKeys: 0,
        experimentUnits: 0,
        experimentSearches: 0,
        experimentCovariates: 0,
        interleavedQueries: 0,
        explorationLists: 0,
        experimentSlices: 0,
        analyticsSearches: 0,
        analyticsSessions: 0,
        analyticsSessionQueries: 0,
      },
    });
    expect((await getJson(t.app, `${URL}?sessionId=forget-me`)).body.data.items).toHaveLength(0);
    expect((await getJson(t.app, `${URL}?sessionId=keep-me`)).body.data.items).toHaveLength(1);
    const again = await request(t.app, { method: 'DELETE', url: `${URL}?sessionId=forget-me` });
    expect(again.body.data.deletedItems).toBe(0);
    expectError(await request(t.app, { method: 'DELETE', url: URL }), 400, 'VALIDATION_ERROR', '/sessionId');
  });

  it('keeps every acknowledged item exactly once under 40 parallel submissions', async () => {
    const submissions = Array.from({ length: 40 }, (_, s) => ({
      sessionId: `parallel-${s}`,
      feedback: Array.from({ length: 25 }, (_, i) => ({ queryId: `q-${s}-${i}`, rating: (i % 5) + 0.5 })),
    }));
    const results = await Promise.all(submissions.map((b) => postJson(t.app, URL, b)));
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    let total = 0;
    for (const s of submissions) {
      const list = await getJson(t.app, `${URL}?sessionId=${s.sessionId}&limit=1000`);
      const queryIds = list.body.data.items.map((i: { queryId: string }) => i.queryId).sort();
      expect(queryIds).toEqual(s.feedback.map((f) => f.queryId).sort());
      total += queryIds.length;
    }
    expect(total).toBe(1000);
  });
});
