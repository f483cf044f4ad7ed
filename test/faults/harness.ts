import http from 'node:http';
import { mulberry32 } from '../../src/random/index.js';
import { sleep } from '../support/ports.js';
import { spawnService, type ServiceProcess } from '../support/service-process.js';

/** A seeded PRNG, so every run kills at the same planned moments. */
export const prng = mulberry32;

/**
 * `node dist/cli/cli.js serve` (`npm run test:faults` builds it first) logging at info, so a test
 * can read its lines, with no rate limits: the load here comes from one address far faster than a
 * real client.
 */
export function startServer(env: Record<string, string>): Promise<ServiceProcess> {
  return spawnService({
    cli: 'built',
    env: { LOG_LEVEL: 'info', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', ...env },
    timeoutMs: 90_000,
  });
}

export interface Answer {
  /** HTTP status, or undefined when no answer came (connection refused, reset, timeout). */
  status: number | undefined;
  body: any;
  error?: string;
  headers?: http.IncomingHttpHeaders;
  ms: number;
}

export interface SendOptions {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  agent?: http.Agent;
  timeoutMs?: number;
}

/** One HTTP exchange that never throws: network failures come back as `{status: undefined, error}`. */
export function send(baseUrl: string, options: SendOptions): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve) => {
    const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
    let settled = false;
    const done = (answer: Omit<Answer, 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, ms: Date.now() - started });
    };
    const req = http.request(
      `${baseUrl}${options.path}`,
      {
        method: options.method,
        agent: options.agent ?? false,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => done({ status: undefined, body: undefined, error: errorCode(e) }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          done({ status: res.statusCode, body, headers: res.headers });
        });
      },
    );
    req.setTimeout(options.timeoutMs ?? 60_000, () => {
      req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' }));
    });
    req.on('error', (e) => done({ status: undefined, body: undefined, error: errorCode(e) }));
    req.end(payload);
  });
}

function errorCode(e: unknown): string {
  const err = e as { code?: string; message?: string };
  return err.code ?? err.message ?? String(e);
}

export interface SentBatch {
  requestId: string;
  body: { sessionId: string; feedback: { queryId: string; rating: number }[] };
  queryIds: string[];
  answer: Answer;
  /** When the request was started and answered (ms since epoch). */
  startedAt: number;
  endedAt: number;
}

export interface LoadOptions {
  baseUrl: string;
  sessionId: string;
  /** Prefix of every request id, Idempotency-Key and queryId of this load (unique per run). */
  prefix: string;
  clients: number;
  itemsPerRequest: number | (() => number);
  /** Stop a client at its first unanswered request (the server is gone). */
  stopOnNoAnswer: boolean;
  /** Pause after an answer other than 201, so a failing server is not hammered in a tight loop. */
  pauseAfterFailureMs?: number;
  timeoutMs?: number;
}

export interface Load {
  batches: SentBatch[];
  /** Stops issuing new requests and waits for those in flight. */
  stop(): Promise<SentBatch[]>;
  /** Resolves when every client has stopped by itself (all hit `stopOnNoAnswer`). */
  finished: Promise<SentBatch[]>;
}

export function feedbackBatch(sessionId: string, requestId: string, items: number): SentBatch['body'] {
  return {
    sessionId,
    feedback: Array.from({ length: items }, (_, i) => ({ queryId: `${requestId}-i${i}`, rating: (i % 5) + 1 })),
  };
}

export function postBatch(
  baseUrl: string,
  requestId: string,
  body: SentBatch['body'],
  agent?: http.Agent,
  timeoutMs?: number,
): Promise<Answer> {
  return send(baseUrl, {
    method: 'POST',
    path: '/api/cortex/feedback',
    body,
    headers: { 'idempotency-key': requestId, 'x-request-id': requestId },
    agent,
    timeoutMs,
  });
}

/** Sustained ingestion: `clients` concurrent keep-alive clients posting batches of distinct, recorded items. */
export function startLoad(options: LoadOptions): Load {
  const batches: SentBatch[] = [];
  let stopped = false;
  const size = typeof options.itemsPerRequest === 'number' ? () => options.itemsPerRequest as number : options.itemsPerRequest;
  const client = async (c: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let n = 0; !stopped; n += 1) {
        const requestId = `${options.prefix}-c${c}-r${n}`;
        const body = feedbackBatch(options.sessionId, requestId, size());
        const startedAt = Date.now();
        const answer = await postBatch(options.baseUrl, requestId, body, agent, options.timeoutMs);
        batches.push({ requestId, body, queryIds: body.feedback.map((f) => f.queryId), answer, startedAt, endedAt: Date.now() });
        if (answer.status === undefined && options.stopOnNoAnswer) return;
        if (answer.status !== 201 && options.pauseAfterFailureMs) await sleep(options.pauseAfterFailureMs);
      }
    } finally {
      agent.destroy();
    }
  };
  const all = Promise.all(Array.from({ length: options.clients }, (_, c) => client(c))).then(() => batches);
  return {
    batches,
    finished: all,
    async stop() {
      stopped = true;
      return all;
    },
  };
}

/** Every item of a session through the API, following `nextCursor` (limit 1000 a page). */
export async function listSessionItems(baseUrl: string, sessionId: string): Promise<{ queryId: string; feedbackId: string }[]> {
  const items: { queryId: string; feedbackId: string }[] = [];
  let cursor: string | null = null;
  do {
    const qs = new URLSearchParams({ sessionId, limit: '1000', ...(cursor ? { cursor } : {}) });
    const res = await send(baseUrl, { method: 'GET', path: `/api/cortex/feedback?${qs}` });
    if (res.status !== 200) throw new Error(`listing ${sessionId} answered ${res.status ?? res.error}: ${JSON.stringify(res.body)}`);
    items.push(...(res.body.data.items as { queryId: string; feedbackId: string }[]));
    cursor = res.body.data.nextCursor as string | null;
  } while (cursor);
  return items;
}

export interface Audit {
  acknowledged: number;
  acknowledgedItems: number;
  unanswered: number;
  /** Acknowledged items not found. */
  lost: string[];
  /** Items found more than once. */
  duplicates: string[];
  /** Submissions found only in part (a batch is all or nothing). */
  partial: string[];
  /** Items of unanswered or failed requests that are present anyway (allowed: the commit may precede the lost answer). */
  unacknowledgedPresent: number;
  found: number;
}

/** Compares what the server acknowledged with what the database holds now. */
export function audit(batches: SentBatch[], found: { queryId: string }[]): Audit {
  const counts = new Map<string, number>();
  for (const item of found) counts.set(item.queryId, (counts.get(item.queryId) ?? 0) + 1);
  const result: Audit = {
    acknowledged: 0,
    acknowledgedItems: 0,
    unanswered: 0,
    lost: [],
    duplicates: [],
    partial: [],
    unacknowledgedPresent: 0,
    found: found.length,
  };
  for (const [queryId, n] of counts) if (n > 1) result.duplicates.push(`${queryId}×${n}`);
  for (const batch of batches) {
    const present = batch.queryIds.filter((q) => counts.has(q)).length;
    if (present !== 0 && present !== batch.queryIds.length) result.partial.push(`${batch.requestId}: ${present}/${batch.queryIds.length}`);
    if (batch.answer.status === 201) {
      result.acknowledged += 1;
      result.acknowledgedItems += batch.queryIds.length;
      for (const q of batch.queryIds) if (!counts.has(q)) result.lost.push(q);
    } else {
      if (batch.answer.status === undefined) result.unanswered += 1;
      if (present > 0) result.unacknowledgedPresent += 1;
    }
  }
  return result;
}

/** Asserts the error envelope's shape without vitest, so callers can collect every violation. */
export function isErrorEnvelope(body: any, code: string): boolean {
  return (
    body !== null &&
    typeof body === 'object' &&
    body.success === false &&
    body.error?.code === code &&
    typeof body.error.message === 'string' &&
    typeof body.error.requestId === 'string' &&
    Array.isArray(body.error.details)
  );
}

/** Counts answers by status (or network error code) for the report lines. */
export function tally(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === undefined ? `no answer (${a.error})` : String(a.status);
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}
