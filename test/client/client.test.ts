import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchloopError, createClient } from '../../packages/client/src/index.js';
import { sleep } from '../support/ports.js';
import { ADMIN_KEY, Service, startProxy } from './support/service.js';

const item = (sessionId: string, n: number) => ({
  sessionId,
  queryId: `q-${n}`,
  metadata: { userAction: 'click', resultId: `doc-${n}`, customMetadata: { position: (n % 10) + 1 } },
});
const fastRetry = { baseDelayMs: 20, maxDelayMs: 5000, attempts: 8 };

describe('@searchloop/client against a running service (SQLite)', { timeout: 60_000 }, () => {
  let service: Service;

  beforeAll(async () => {
    service = await Service.start();
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('batches by size (≤ 1000 items a request), each batch with its own Idempotency-Key', async () => {
    const proxy = await startProxy(() => service.url);
    const client = createClient({ baseUrl: proxy.url, apiKey: ADMIN_KEY, flushIntervalMs: 0, retry: fastRetry });
    for (let i = 0; i < 2500; i++) expect(client.feedback.track(item('batch-s', i))).toBe(true);
    const result = await client.feedback.flush();
    expect(result).toEqual({ sent: 2500, dropped: 0, errors: [] });
    const sizes = proxy.posts().map((p) => (JSON.parse(p.body) as { feedback: unknown[] }).feedback.length);
    expect(sizes.sort((a, b) => b - a)).toEqual([1000, 1000, 500]);
    expect(new Set(proxy.posts().map((p) => p.key)).size).toBe(3);
    expect(await service.items('batch-s')).toHaveLength(2500);
    client.close();
    await proxy.close();
  });

  it('splits batches per sessionId, as the API takes one session per submission', async () => {
    const proxy = await startProxy(() => service.url);
    const client = createClient({ baseUrl: proxy.url, apiKey: ADMIN_KEY, flushIntervalMs: 0 });
    for (let i = 0; i < 30; i++) client.feedback.track(item(`split-${i % 3}`, i));
    expect((await client.feedback.flush()).sent).toBe(30);
    const sessions = proxy.posts().map((p) => (JSON.parse(p.body) as { sessionId: string }).sessionId);
    expect(sessions.sort()).toEqual(['split-0', 'split-1', 'split-2']);
    for (let s = 0; s < 3; s++) expect(await service.items(`split-${s}`)).toHaveLength(10);
    client.close();
    await proxy.close();
  });

  it('flushes by time without being asked', async () => {
    const client = createClient({ baseUrl: service.url, apiKey: ADMIN_KEY, flushIntervalMs: 100 });
    client.feedback.track(item('timer-s', 1));
    const deadline = Date.now() + 5000;
    // The row is readable as soon as it commits, before the WAL sync that precedes its 201 reaches
    // the client: wait for the acknowledgement, not only the row.
    while (client.feedback.stats.sent === 0 && Date.now() < deadline) await sleep(50);
    expect(await service.items('timer-s')).toHaveLength(1);
    expect(client.feedback.stats.sent).toBe(1);
    client.close();
  });

  it('retries a 503 whose answer was lost, honouring Retry-After, and stores nothing twice', async () => {
    // The first POST reaches the service (and is stored) but the client is told 503, Retry-After: 1.
    const proxy = await startProxy(
      () => service.url,
      (_seen, index) => (index === 0 ? { status: 503, headers: { 'retry-after': '1' }, afterUpstream: true } : 'pass'),
    );
    const client = createClient({ baseUrl: proxy.url, apiKey: ADMIN_KEY, flushIntervalMs: 0, retry: fastRetry });
    for (let i = 0; i < 50; i++) client.feedback.track(item('retry-503', i));
    expect(await client.feedback.flush()).toEqual({ sent: 50, dropped: 0, errors: [] });
    const [first, second] = proxy.posts();
    expect(proxy.posts()).toHaveLength(2);
    expect(first!.status).toBe(503);
    expect(second!.key).toBe(first!.key);
    expect(second!.body).toBe(first!.body);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
    expect(await service.items('retry-503')).toHaveLength(50);
    client.close();
    await proxy.close();
  });

  it('survives the service being killed mid-flush: retries until it is back, nothing stored twice', async () => {
    // The service commits the first batch, then dies (kill -9) before the answer leaves.
    const proxy = await startProxy(
      () => service.url,
      (_seen, index) => (index === 0 ? 'drop-after-upstream' : 'pass'),
    );
    proxy.onLostAnswer(async () => {
      await service.kill();
      setTimeout(() => void service.boot(), 300);
    });
    const client = createClient({
      baseUrl: proxy.url,
      apiKey: ADMIN_KEY,
      flushIntervalMs: 0,
      retry: { baseDelayMs: 200, maxDelayMs: 2000, attempts: 30 },
    });
    for (let i = 0; i < 300; i++) client.feedback.track(item('killed', i));
    expect(await client.feedback.flush()).toEqual({ sent: 300, dropped: 0, errors: [] });
    const posts = proxy.posts();
    expect(posts[0]!.status).toBe(-201); // stored, answer lost
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(posts.map((p) => p.key)).size).toBe(1);
    expect(posts.at(-1)!.status).toBe(201);
    const stored = await service.items('killed');
    expect(stored).toHaveLength(300);
    expect(new Set(stored.map((s) => s.queryId)).size).toBe(300);
    client.close();
    await proxy.close();
  });

  it('reports idempotency conflicts and validation errors as typed SearchloopErrors', async () => {
    const client = createClient({ baseUrl: service.url, apiKey: ADMIN_KEY });
    const body = { sessionId: 'idem', feedback: [{ queryId: 'q', metadata: { userAction: 'click' } }] };
    const one = await client.feedback.submit(body, 'same-key-1');
    const two = await client.feedback.submit(body, 'same-key-1');
    expect(two.feedbackId).toBe(one.feedbackId);
    expect(await service.items('idem')).toHaveLength(1);

    const conflict = await client.feedback.submit({ ...body, sessionId: 'idem-2' }, 'same-key-1').catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(SearchloopError);
    expect(conflict).toMatchObject({ code: 'CONFLICT', status: 409, details: [{ path: '/idempotency-key' }] });
    expect((conflict as SearchloopError).requestId).toEqual(expect.any(String));

    const bad = await client.feedback
      .submit({ sessionId: 'x', feedback: [{ queryId: 'q', rating: 9 }] })
      .catch((e: unknown) => e as SearchloopError);
    expect(bad).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect((bad as SearchloopError).details.map((d) => d.path)).toContain('/feedback/0/rating');

    const unauthorized = await createClient({ baseUrl: service.url, apiKey: 'not-a-key-of-this-service' })
      .experiments.list()
      .catch((e: unknown) => e);
    expect(unauthorized).toMatchObject({ name: 'SearchloopError', code: 'UNAUTHORIZED', status: 401 });

    const missing = await client.experiments.get('no-such-experiment').catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    client.close();
  });

  it('drops by the documented policy and counts it: full queue refuses new items, a refused batch is dropped', async () => {
    const dropped: string[] = [];
    const client = createClient({
      baseUrl: service.url,
      apiKey: ADMIN_KEY,
      flushIntervalMs: 0,
      maxQueue: 3,
      onDrop: (items, reason) => dropped.push(`${reason}:${items.length}`),
    });
    expect(client.feedback.track(item('drop-a', 1))).toBe(true);
    expect(client.feedback.track({ sessionId: 'drop-a', queryId: 'q-bad', rating: 9 })).toBe(true); // the service refuses it
    expect(client.feedback.track(item('drop-b', 3))).toBe(true);
    expect(client.feedback.track(item('drop-b', 4))).toBe(false);
    expect(client.feedback.track({ sessionId: '', queryId: 'q' })).toBe(false);
    const result = await client.feedback.flush();
    expect(result.sent).toBe(1);
    expect(result.dropped).toBe(2);
    expect(result.errors[0]).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect(client.feedback.stats).toMatchObject({
      sent: 1,
      dropped: 4,
      droppedByReason: { 'queue-full': 1, invalid: 1, rejected: 2, failed: 0 },
      queued: 0,
      inFlight: 0,
    });
    expect(dropped).toEqual(['queue-full:1', 'invalid:1', 'rejected:2']);
    client.close();
  });

  it('assign is cached per unit; experiments, models and results are typed calls', async () => {
    const proxy = await startProxy(() => service.url);
    const client = createClient({ baseUrl: proxy.url, apiKey: ADMIN_KEY });
    const a = await client.assign('unit-1', { country: 'DE' });
    const b = await client.assign('unit-1');
    expect(b).toBe(a);
    expect(proxy.posts().filter((p) => p.path === '/api/nous/ab-testing/assign')).toHaveLength(1);
    const page = await client.experiments.list({ limit: 5 });
    expect(Array.isArray(page.items)).toBe(true);
    const models = await client.models.list();
    expect(Array.isArray(models.items)).toBe(true);
    client.close();
    await proxy.close();
  });
});

describe('@searchloop/client and rate limits', { timeout: 60_000 }, () => {
  let service: Service;
  beforeAll(async () => {
    service = await Service.start({ RATE_LIMIT_PER_KEY: '2', RATE_LIMIT_WINDOW_MS: '2000' });
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('waits out a 429 for its Retry-After and then delivers everything once', async () => {
    const proxy = await startProxy(() => service.url);
    const client = createClient({ baseUrl: proxy.url, apiKey: ADMIN_KEY, flushIntervalMs: 0, retry: fastRetry });
    for (let i = 0; i < 12; i++) client.feedback.track(item(`limited-${i % 4}`, i));
    expect(await client.feedback.flush()).toEqual({ sent: 12, dropped: 0, errors: [] });
    const posts = proxy.posts();
    const limited = posts.filter((p) => p.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const refused of limited) {
      const retry = posts.find((p) => p.key === refused.key && p.at > refused.at);
      expect(retry).toBeDefined();
      expect(retry!.at - refused.at).toBeGreaterThanOrEqual(900);
    }
    expect(posts.filter((p) => p.status === 201)).toHaveLength(4);
    for (let s = 0; s < 4; s++) expect(await service.items(`limited-${s}`)).toHaveLength(3);
    client.close();
    await proxy.close();
  });
});
