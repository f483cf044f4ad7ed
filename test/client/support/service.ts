import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, sleep } from '../../support/ports.js';
import { spawnService, type ServiceProcess } from '../../support/service-process.js';

export const ADMIN_KEY = 'client-test-admin-key-0001';

/**
 * `searchloop serve` (from the source) on a SQLite file: the service a client meets, which a test
 * can kill -9 and start again on the same port and file.
 */
export class Service {
  private process: ServiceProcess | undefined;
  readonly file: string;

  private constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-client-')), 'db.sqlite');
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(env: Record<string, string> = {}): Promise<Service> {
    const service = new Service(await freePort(), env);
    await service.boot();
    return service;
  }

  async boot(): Promise<void> {
    this.process = await spawnService({
      port: this.port,
      env: {
        DATABASE_URL: `sqlite:${this.file}`,
        SEARCHLOOP_API_KEYS: `${ADMIN_KEY}:admin`,
        RATE_LIMIT_PER_IP: '0',
        RATE_LIMIT_PER_KEY: '0',
        ...this.env,
      },
    });
  }

  async kill(): Promise<void> {
    await this.process?.killHard();
  }

  async stop(): Promise<void> {
    await this.process?.stop();
    fs.rmSync(path.dirname(this.file), { recursive: true, force: true });
  }

  /** Every stored item of a session, through the API. */
  async items(sessionId: string): Promise<{ queryId: string; metadata: { resultId: string | null } }[]> {
    const out: { queryId: string; metadata: { resultId: string | null } }[] = [];
    let cursor: string | undefined;
    do {
      const url = `${this.url}/api/cortex/feedback?sessionId=${encodeURIComponent(sessionId)}&limit=1000${cursor ? `&cursor=${cursor}` : ''}`;
      let res = await fetch(url, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      while (res.status === 429) {
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        res = await fetch(url, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      }
      const body = (await res.json()) as { data: { items: never[]; nextCursor: string | null } };
      out.push(...body.data.items);
      cursor = body.data.nextCursor ?? undefined;
    } while (cursor);
    return out;
  }
}

export interface Seen {
  method: string;
  path: string;
  key: string | undefined;
  body: string;
  at: number;
  status?: number;
}

export type Fault = (
  seen: Seen,
  index: number,
) => 'pass' | { status: number; headers?: Record<string, string>; afterUpstream: boolean } | 'drop-after-upstream';

/**
 * A forwarding proxy in front of the service that records every request and can lose answers:
 * forward a request and send the client a 503 instead of the service's 201, or cut the
 * connection after the service answered (as a crash between commit and reply does).
 */
export async function startProxy(target: () => string, fault: Fault = () => 'pass') {
  const seen: Seen[] = [];
  let onUpstreamDone: ((seen: Seen) => Promise<void>) | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const entry: Seen = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        key: req.headers['idempotency-key'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = seen.push(entry) - 1;
      const decision = fault(entry, index);
      if (typeof decision === 'object' && !decision.afterUpstream) {
        entry.status = decision.status;
        res.writeHead(decision.status, { 'content-type': 'application/json', ...decision.headers });
        res.end(
          JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'injected', details: [], requestId: `proxy-${index}` } }),
        );
        return;
      }
      const headers = { ...req.headers } as Record<string, string>;
      delete headers.host;
      delete headers.connection;
      let upstream: Response;
      try {
        upstream = await fetch(target() + entry.path, {
          method: entry.method,
          headers,
          ...(entry.body && entry.method !== 'GET' ? { body: entry.body } : {}),
        });
      } catch {
        entry.status = 0;
        req.socket.destroy();
        return;
      }
      const text = await upstream.text();
      if (decision === 'drop-after-upstream') {
        entry.status = -upstream.status;
        await onUpstreamDone?.(entry);
        req.socket.destroy();
        return;
      }
      if (typeof decision === 'object') {
        entry.status = decision.status;
        res.writeHead(decision.status, { 'content-type': 'application/json', ...decision.headers });
        res.end(
          JSON.stringify({
            success: false,
            error: { code: 'UNAVAILABLE', message: 'injected after upstream', details: [], requestId: `proxy-${index}` },
          }),
        );
        return;
      }
      entry.status = upstream.status;
      const out: Record<string, string> = { 'content-type': upstream.headers.get('content-type') ?? 'application/json' };
      const retryAfter = upstream.headers.get('retry-after');
      if (retryAfter) out['retry-after'] = retryAfter;
      res.writeHead(upstream.status, out);
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    posts: () => seen.filter((s) => s.method === 'POST'),
    /** Runs after an answer was lost (e.g. to kill the service). */
    onLostAnswer(fn: (seen: Seen) => Promise<void>) {
      onUpstreamDone = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
