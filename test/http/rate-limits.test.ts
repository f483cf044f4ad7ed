import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { expectError, request } from '../support/http.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

// The defaults of loadConfig(): 6000 requests per minute per IP without a valid key, 30 invalid
// keys per minute per IP, no per-key limit. A fixed test clock keeps every request in one window.
const defaults = loadConfig({});
const LIMITS = {
  rateLimitPerIp: defaults.rateLimitPerIp,
  rateLimitAuthFailuresPerIp: defaults.rateLimitAuthFailuresPerIp,
  rateLimitPerKey: defaults.rateLimitPerKey,
  rateLimitWindowMs: defaults.rateLimitWindowMs,
};
const REMOTE = '203.0.113.7';

async function flood(app: FastifyInstance, n: number, options: { key?: string; remoteAddress?: string; url?: string }) {
  const statuses = new Map<number, number>();
  let first429: Awaited<ReturnType<typeof request>> | undefined;
  let first429At = -1;
  for (let i = 0; i < n; i += 1) {
    const res = await request(app, {
      method: 'GET',
      url: options.url ?? '/api/system',
      remoteAddress: options.remoteAddress ?? REMOTE,
      headers: options.key ? { authorization: `Bearer ${options.key}` } : {},
    });
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    if (res.statusCode === 429 && !first429) {
      first429 = res;
      first429At = i;
    }
  }
  return { statuses, first429, first429At };
}

describe('rate limits with keys: per IP only without a valid key', () => {
  let t: TestApp;
  const clock = new TestClock(Date.parse('2026-11-22T12:00:30Z'));
  const KEY = 'backend-admin-key-0001';
  beforeAll(async () => {
    const config = loadConfig({ SEARCHLOOP_API_KEYS: `${KEY}:admin` });
    t = await buildTestApp('sqlite', { envApiKeys: config.apiKeys, clock, ...LIMITS });
  });
  afterAll(async () => t.close());

  it('uses the documented defaults', () => {
    expect(LIMITS).toEqual({ rateLimitPerIp: 6000, rateLimitAuthFailuresPerIp: 30, rateLimitPerKey: 0, rateLimitWindowMs: 60_000 });
  });

  it('never throttles a keyed client from one address, even past 6000 requests a minute', async () => {
    const { statuses } = await flood(t.app, 6500, { key: KEY });
    expect(Object.fromEntries(statuses)).toEqual({ 200: 6500 });
  });

  it('throttles an anonymous flood from one address at 6000 a minute, with Retry-After', async () => {
    const { statuses, first429, first429At } = await flood(t.app, 6050, { remoteAddress: '198.51.100.9' });
    expect(first429At).toBe(6000);
    expect(statuses.get(401)).toBe(6000);
    expect(statuses.get(429)).toBe(50);
    expectError(first429!, 429, 'RATE_LIMITED');
    expect(Number(first429!.headers['retry-after'])).toBe(30);
    // The keyed client on another address is untouched.
    expect((await flood(t.app, 1, { key: KEY })).statuses.get(200)).toBe(1);
  });

  it('throttles key guessing: after 30 invalid keys the address gets 429s, even with the right key', async () => {
    const guesser = '192.0.2.44';
    const guesses = await flood(t.app, 40, { remoteAddress: guesser, key: 'sl_admin_guess' });
    expect(guesses.statuses.get(401)).toBe(30);
    expect(guesses.statuses.get(429)).toBe(10);
    expect(guesses.first429At).toBe(30);
    expectError(guesses.first429!, 429, 'RATE_LIMITED');
    expect(guesses.first429!.body.error.message).toContain('invalid API keys');
    const rightKey = await flood(t.app, 1, { remoteAddress: guesser, key: KEY });
    expect(rightKey.statuses.get(429)).toBe(1);
    // A new window lifts the block.
    clock.advance(60_000);
    expect((await flood(t.app, 1, { remoteAddress: guesser, key: KEY })).statuses.get(200)).toBe(1);
  });
});

describe('rate limits without keys (open service)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', { clock: new TestClock(Date.parse('2026-11-22T12:00:00Z')), ...LIMITS, rateLimitPerIp: 100 });
  });
  afterAll(async () => t.close());

  it('exempts loopback clients (a local demo or back end) and limits every other address', async () => {
    const local = await flood(t.app, 300, { remoteAddress: '127.0.0.1' });
    expect(Object.fromEntries(local.statuses)).toEqual({ 200: 300 });
    const remote = await flood(t.app, 120, {});
    expect(remote.first429At).toBe(100);
    expect(remote.statuses.get(429)).toBe(20);
  });
});
