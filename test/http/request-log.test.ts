import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createContainer, type Container } from '../../src/container.js';
import { chooseLogFormat, createLogger } from '../../src/observability/logger.js';
import { requestLine } from '../../src/observability/request-log.js';
import type { DatabaseHandle } from '../../src/storage/database.js';
import { syntheticLetor } from '../learning/support/synthetic-letor.js';
import { postJson, request } from '../support/http.js';
import { createTestDatabase, describeOnEveryDatabase, openTestDatabase, type TestDatabase } from '../support/test-database.js';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  event?: string;
  statusCode?: number;
  errorCode?: string;
  [key: string]: unknown;
}

/** A stream that keeps every line written to it, as main.ts's logger would write them to stdout. */
function captured(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

const INFO = 30;

describeOnEveryDatabase('what the terminal shows', (kind) => {
  const { stream, lines } = captured();
  const json = () => lines.map((l) => JSON.parse(l) as Line);
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let container: Container;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDatabase = await createTestDatabase(kind);
    database = await openTestDatabase(testDatabase);
    // Built as main.ts builds it: one logger for the app and the container's domain events.
    const log = createLogger({ level: 'info', format: 'json', destination: stream, stdoutIsTty: false });
    container = createContainer(database, undefined, { log });
    app = await buildApp({ bodyLimitBytes: 2 * 1024 * 1024, logLevel: 'info', loggerInstance: log }, container);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await container.close();
    await database.close();
    await testDatabase.drop();
  });
  beforeEach(() => {
    lines.length = 0;
  });

  it('writes one line per answered request, with method, URL, status and time, and none for /healthz', async () => {
    const res = await request(app, { method: 'GET', url: '/api/nous/learn/models?limit=1', headers: { 'x-request-id': 'one-line' } });
    expect(res.statusCode).toBe(200);
    expect((await request(app, { method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await request(app, { method: 'GET', url: '/metrics' })).statusCode).toBe(200);

    const mine = json().filter((l) => l.reqId === 'one-line');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: INFO, method: 'GET', url: '/api/nous/learn/models?limit=1', statusCode: 200 });
    expect(mine[0]!.msg).toMatch(/^GET \/api\/nous\/learn\/models\?limit=1 200 [\d.]+ ms$/);
    expect(json().filter((l) => String(l.url ?? l.msg).includes('/healthz'))).toEqual([]);
    expect(json().filter((l) => String(l.url ?? l.msg).includes('/metrics'))).toEqual([]);
    expect(json()).toHaveLength(1);
  });

  it('writes no line for answered search-time calls (rank, assign, feedback) at info; their errors still get one', async () => {
    const call = { unitId: 'u', queryId: 'q', results: [{ resultId: 'a', features: { f: 1 } }] };
    const ok = await postJson(app, '/api/nous/rank', call);
    expect(ok.statusCode, JSON.stringify(ok.body)).toBe(200);
    expect(json()).toEqual([]);
    const bad = await postJson(app, '/api/nous/rank', { ...call, results: [{ resultId: 'a', features: { f: 'x' } }] });
    expect(bad.statusCode).toBe(400);
    expect(json()).toHaveLength(1);
    expect(json()[0]).toMatchObject({ level: INFO, statusCode: 400, errorCode: 'VALIDATION_ERROR' });
  });

  it("puts the envelope's error code in a 4xx line", async () => {
    const res = await postJson(app, '/api/cortex/feedback', { sessionId: 's', feedback: [{ queryId: 'q', rating: 9 }] });
    expect(res.statusCode).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const [line, ...more] = json();
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: INFO, statusCode: 400, errorCode: 'VALIDATION_ERROR', reqId: res.body.error.requestId });
    expect(line!.msg).toMatch(/^POST \/api\/cortex\/feedback 400 VALIDATION_ERROR [\d.]+ ms$/);

    const missing = await request(app, { method: 'GET', url: '/api/nous/learn/models/nope' });
    expect(missing.statusCode).toBe(404);
    expect(json()[1]).toMatchObject({ statusCode: 404, errorCode: 'NOT_FOUND' });
  });

  it('writes a model.trained line, with the version, once a ranker is trained, then model.activated', async () => {
    const config = { trainingData: 'dataset', numTrees: 20, numLeaves: 7, minDataInLeaf: 5, validationFraction: 0.2, seed: 3 };
    expect(
      (await postJson(app, '/api/nous/learn/models', { modelId: 'ranker-a', name: 'ranker-a', type: 'ranker', config })).statusCode,
    ).toBe(201);
    const letor = syntheticLetor({ queries: 40, docsPerQuery: 10, features: 4, seed: 5 });
    const upload = await request(app, {
      method: 'POST',
      url: '/api/nous/learn/models/ranker-a/dataset',
      payload: letor,
      headers: { 'content-type': 'text/plain' },
    });
    expect(upload.statusCode, JSON.stringify(upload.body)).toBe(201);
    await container.learning.services.trainingService.runUntilIdle();

    const events = json().filter((l) => l.event !== undefined);
    expect(events.map((l) => l.event)).toEqual(['model.trained', 'model.activated']);
    const [trained, activated] = events;
    expect(trained).toMatchObject({ level: INFO, modelId: 'ranker-a', version: 1 });
    // The sentence a person reads: model "ranker-a" trained: v1 (NDCG@10 0.71, 320 train rows, 0.4 s).
    expect(trained!.msg).toMatch(/^model "ranker-a" trained: v1 \(NDCG@10 \d\.\d+, \d+ train rows, [\d.]+ s\)$/);
    expect(activated!.msg).toBe('model "ranker-a" v1 activated (its first version)');
  });

  it('writes an import batch line with its counts', async () => {
    const lines = [
      { line: 1, text: JSON.stringify({ sessionId: 'imp', feedback: [{ queryId: 'q1', rating: 3 }] }) },
      { line: 2, text: JSON.stringify({ sessionId: 'imp', feedback: [{ queryId: 'q2', rating: 99 }] }) },
    ];
    const res = await postJson(app, '/api/cortex/feedback/import', { format: 'feedback', lines });
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    const event = json().find((l) => l.event === 'import.batch');
    expect(event).toMatchObject({ lines: 2, imported: 1, duplicates: 0, rejected: 1 });
    expect(event!.msg).toMatch(/^import batch finished: 2 lines, 1 item accepted, 0 already imported, 1 line rejected \(first: line 2: /);
  });
});

describe('the log format', () => {
  it('is pretty on a terminal and JSON otherwise by default; an explicit LOG_FORMAT wins', () => {
    expect(chooseLogFormat('auto', true)).toBe('pretty');
    expect(chooseLogFormat('auto', false)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });

  it('writes pretty lines as time, level and message, without the JSON fields', () => {
    const { stream, lines } = captured();
    const log = createLogger({ level: 'info', format: 'auto', stdoutIsTty: true, destination: stream });
    log.info({ event: 'model.trained', modelId: 'ranker-a' }, 'model "ranker-a" trained: v5');
    log.debug('not at info');
    // Colours are for a terminal: strip them to read the text.
    const text = lines.map((l) => stripVTControlCharacters(l));
    expect(text).toHaveLength(1);
    expect(text[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: model "ranker-a" trained: v5$/);
  });
});

describe('the request line', () => {
  const get = (url: string, quietLog?: boolean) => ({ id: 'req-7', method: 'GET', url, routeOptions: { config: { quietLog } } });

  it('is debug for probes, /metrics and served files while they succeed, info or error when they fail', () => {
    expect(requestLine(get('/healthz'), 200, 0.42, undefined)).toMatchObject({ level: 'debug', message: 'GET /healthz 200 0.4 ms' });
    expect(requestLine(get('/metrics?x=1'), 200, 3, undefined).level).toBe('debug');
    expect(requestLine(get('/assets/index.js', true), 200, 12.4, undefined)).toMatchObject({
      level: 'debug',
      message: 'GET /assets/index.js 200 12 ms',
    });
    expect(requestLine(get('/assets/gone.js', true), 404, 1, 'NOT_FOUND')).toMatchObject({
      level: 'info',
      fields: { errorCode: 'NOT_FOUND' },
    });
    expect(requestLine(get('/readyz'), 503, 2, 'UNAVAILABLE')).toMatchObject({
      level: 'error',
      message: 'GET /readyz 503 UNAVAILABLE 2 ms (request req-7)',
    });
    expect(requestLine(get('/api/nous/learn/models'), 200, 5, undefined).level).toBe('info');
  });

  it('is debug for the search-time routes while they succeed (LOG_LEVEL=debug shows them), info when they fail', () => {
    const route = (url: string, pattern: string) => ({ id: 'r', method: 'POST', url, routeOptions: { url: pattern, config: {} } });
    const assign = route('/api/nous/ab-testing/experiments/e1/assign', '/api/nous/ab-testing/experiments/:experimentId/assign');
    expect(requestLine(assign, 200, 1, undefined).level).toBe('debug');
    expect(requestLine(route('/api/nous/ab-testing/assign', '/api/nous/ab-testing/assign'), 200, 1, undefined).level).toBe('debug');
    expect(requestLine(route('/api/cortex/feedback', '/api/cortex/feedback'), 201, 1, undefined).level).toBe('debug');
    // Reading feedback back shares the path but is not search-time: an operator's call, at info.
    const list = { ...route('/api/cortex/feedback?limit=1', '/api/cortex/feedback'), method: 'GET' };
    expect(requestLine(list, 200, 1, undefined).level).toBe('info');
    expect(requestLine(route('/api/nous/rank', '/api/nous/rank'), 400, 1, 'VALIDATION_ERROR').level).toBe('info');
    expect(requestLine(route('/api/nous/rank', '/api/nous/rank'), 500, 1, 'INTERNAL').level).toBe('error');
  });
});
