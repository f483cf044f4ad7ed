import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../src/common/clock.js';
import type { ApiScope } from '../../../src/common/scopes.js';
import type { Container } from '../../../src/container.js';
import { createScheduler } from '../../../src/scheduler.js';
import { buildTestApp } from '../../support/test-app.js';

export interface DashboardServer {
  /** http://127.0.0.1:<port>, the dashboard at / and the API under /api. */
  url: string;
  app: FastifyInstance;
  container: Container;
  /** Real HTTP against the server, in the envelope; `key` is sent as a Bearer token. */
  api<T = any>(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/**
 * What `npm start` runs (app, background jobs, a listener on a real port) on a fresh temporary
 * SQLite file, with the test's clock so data can span several days.
 */
export async function startDashboardServer(options: {
  clock: Clock;
  apiKeys?: { key: string; scope: ApiScope }[];
  /** false: no background jobs (no `default` model appears: an empty world stays empty). */
  jobs?: boolean;
}): Promise<DashboardServer> {
  const t = await buildTestApp('sqlite', { clock: options.clock, envApiKeys: options.apiKeys });
  const { app, container } = t;
  await container.auth.services.apiKeys.refresh();
  const jobs = createScheduler(container.tasks, app.log, (name, run) => container.metrics.observeJob(name, run));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  if (options.jobs !== false) jobs.start();
  const api = async (method: string, path: string, body?: unknown, key?: string) => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = typeof body === 'string' ? 'text/plain' : 'application/json';
    if (key) headers.authorization = `Bearer ${key}`;
    const res = await fetch(`${address}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // raw files (exports) stay text
    }
    return { status: res.status, body: parsed as any };
  };
  return {
    url: address,
    app,
    container,
    api,
    async close() {
      await jobs.stop();
      await t.close();
    },
  };
}
