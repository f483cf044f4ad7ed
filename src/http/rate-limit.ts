import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PUBLIC_PATHS, presentedKey } from './auth.js';
import { AppError } from '../common/errors.js';
import type { Authenticator } from '../common/scopes.js';

export interface RateLimitOptions {
  /** Requests per window per API key, after authentication (0: no limit). */
  perKey: number;
  /** Requests per window per client IP, for requests without a valid key (0: no limit). */
  perIp: number;
  /** Presented keys that are not valid, per window per client IP; past it the IP gets 429s (0: no limit). */
  authFailuresPerIp: number;
  windowMs: number;
  now?: () => number;
}

export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', message);
  }
}

/**
 * Fixed-window counters kept in this instance's memory. (@fastify/rate-limit takes one key per
 * route; we need several limits on every request.) Behind several instances each enforces its own share.
 */
class FixedWindow {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private roll(now: number): void {
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now - (now % this.windowMs);
      this.counts = new Map();
    }
  }

  private wait(now: number): number {
    return Math.max(1, Math.ceil((this.windowStart + this.windowMs - now) / 1000));
  }

  /** Counts a request of `id`: seconds until the window resets when it is over its limit, else 0. */
  hit(id: string, now: number): number {
    this.roll(now);
    const count = (this.counts.get(id) ?? 0) + 1;
    this.counts.set(id, count);
    return count > this.limit ? this.wait(now) : 0;
  }

  /** Like hit, without counting: seconds to wait when `id` has reached its limit, else 0. */
  peek(id: string, now: number): number {
    this.roll(now);
    return (this.counts.get(id) ?? 0) >= this.limit ? this.wait(now) : 0;
  }
}

function limited(reply: { header(name: string, value: string): unknown }, wait: number, what: string, options: RateLimitOptions): never {
  reply.header('retry-after', String(wait));
  throw new RateLimitedError(`rate limit exceeded for ${what} per ${options.windowMs / 1000} s); retry after ${wait} s`, wait);
}

const isLoopback = (ip: string) => ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
const isPublic = (request: FastifyRequest) => request.method === 'OPTIONS' || PUBLIC_PATHS.has(request.url.split('?')[0]!);

/**
 * The limits on requests a key does not vouch for, before authentication:
 * - an IP that presented more than `authFailuresPerIp` invalid keys in the window gets 429 on
 *   every request until the window ends, valid key or not (so a guess that hits tells nothing);
 * - requests without a valid key count against `perIp`. Requests with a valid key do not: a keyed
 *   server-side integration sends all its traffic from one address. When the service runs open
 *   (no keys), loopback clients are exempt (a local demo or a back end on the same host).
 */
export function registerIpRateLimits(app: FastifyInstance, options: RateLimitOptions, apiKeys: Authenticator): void {
  const now = options.now ?? Date.now;
  const perIp = options.perIp > 0 ? new FixedWindow(options.perIp, options.windowMs) : undefined;
  const failures = options.authFailuresPerIp > 0 ? new FixedWindow(options.authFailuresPerIp, options.windowMs) : undefined;
  if (!perIp && !failures) return;
  app.addHook('onRequest', async (request, reply) => {
    if (isPublic(request)) return;
    const at = now();
    const key = apiKeys.secured ? presentedKey(request.headers) : undefined;
    if (failures && apiKeys.secured) {
      const blocked = failures.peek(request.ip, at);
      if (blocked > 0) limited(reply, blocked, `client ${request.ip} (${options.authFailuresPerIp} invalid API keys`, options);
    }
    const valid = key !== undefined && apiKeys.authenticate(key) !== undefined;
    if (key !== undefined && !valid && failures) failures.hit(request.ip, at); // the auth hook answers this one 401
    if (valid || !perIp) return;
    if (!apiKeys.secured && isLoopback(request.ip)) return;
    const wait = perIp.hit(request.ip, at);
    if (wait > 0) limited(reply, wait, `client ${request.ip} (${options.perIp} requests without a valid API key`, options);
  });
}

/** The per-key limit, after authentication (it needs the key's name). */
export function registerKeyRateLimits(app: FastifyInstance, options: RateLimitOptions): void {
  const now = options.now ?? Date.now;
  if (!(options.perKey > 0)) return;
  const window = new FixedWindow(options.perKey, options.windowMs);
  app.addHook('onRequest', async (request, reply) => {
    if (isPublic(request) || !request.actor) return;
    const wait = window.hit(request.actor, now());
    if (wait > 0) limited(reply, wait, `API key "${request.actor}" (${options.perKey} requests`, options);
  });
}
