import type { FastifyInstance } from 'fastify';
import { PUBLIC_PATHS } from './auth.js';
import { AppError } from '../common/errors.js';

export interface RateLimitOptions {
  /** Requests per window per API key (0: no limit). */
  perKey: number;
  /** Requests per window per client IP (0: no limit). */
  perIp: number;
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
 * Fixed-window counters kept in this instance's memory, one per key and one per IP; both
 * apply. (@fastify/rate-limit takes one key per route; we need two limits on every request.)
 * Behind several instances each enforces its own share.
 */
class FixedWindow {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until the window resets when `id` is over its limit, else 0. */
  hit(id: string, now: number): number {
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now - (now % this.windowMs);
      this.counts = new Map();
    }
    const count = (this.counts.get(id) ?? 0) + 1;
    this.counts.set(id, count);
    return count > this.limit ? Math.max(1, Math.ceil((this.windowStart + this.windowMs - now) / 1000)) : 0;
  }
}

function limited(reply: { header(name: string, value: string): unknown }, wait: number, what: string, options: RateLimitOptions): never {
  reply.header('retry-after', String(wait));
  throw new RateLimitedError(`rate limit exceeded for ${what} requests per ${options.windowMs / 1000} s); retry after ${wait} s`, wait);
}

/**
 * Two hooks: the per-IP limit runs before authentication (so key guessing is slowed too),
 * the per-key limit after it (it needs the key's name).
 */
export function registerRateLimits(app: FastifyInstance, options: RateLimitOptions, stage: 'ip' | 'key'): void {
  const now = options.now ?? Date.now;
  const limit = stage === 'ip' ? options.perIp : options.perKey;
  if (!(limit > 0)) return;
  const window = new FixedWindow(limit, options.windowMs);
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS' || PUBLIC_PATHS.has(request.url.split('?')[0]!)) return;
    if (stage === 'ip') {
      const wait = window.hit(request.ip, now());
      if (wait > 0) limited(reply, wait, `client ${request.ip} (${limit}`, options);
    } else if (request.actor) {
      const wait = window.hit(request.actor, now());
      if (wait > 0) limited(reply, wait, `API key "${request.actor}" (${limit}`, options);
    }
  });
}
