import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';

export interface JsonResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  body: any;
}

export async function request(app: FastifyInstance, options: InjectOptions): Promise<JsonResponse> {
  const res = await app.inject(options);
  let body: unknown;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  return { statusCode: res.statusCode, headers: res.headers, body };
}

export const postJson = (app: FastifyInstance, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  request(app, {
    method: 'POST',
    url,
    payload: payload as InjectOptions['payload'],
    headers: { 'content-type': 'application/json', ...headers },
  });

export const getJson = (app: FastifyInstance, url: string) => request(app, { method: 'GET', url });

/** Asserts the error envelope, its status and code, and (optionally) a detail naming `path`. */
export function expectError(res: JsonResponse, status: number, code: string, path?: string): void {
  expect(res.statusCode, JSON.stringify(res.body)).toBe(status);
  expect(res.body.success).toBe(false);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(typeof res.body.error.requestId).toBe('string');
  expect(Array.isArray(res.body.error.details)).toBe(true);
  if (path !== undefined) {
    const paths = (res.body.error.details as { path: string }[]).map((d) => d.path);
    expect(paths, res.body.error.message).toContain(path);
  }
}
