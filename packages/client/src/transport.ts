import { SearchloopError, isRetryable, type ErrorDetail } from './errors.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface RetryPolicy {
  /** Attempts in all, the first included (default 6). */
  attempts: number;
  /** First backoff ceiling in ms (default 250); doubles each attempt. */
  baseDelayMs: number;
  /** Longest wait between attempts in ms, Retry-After included (default 30 000). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 250, maxDelayMs: 30_000 };

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  fetch?: FetchLike;
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout in ms (default 10 000). */
  timeoutMs?: number;
  /** Random source in [0, 1) for the jitter (tests pin it). */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** A body already serialized (sent as is on every attempt, so its Idempotency-Key stays valid). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Retry this request (default: only idempotent methods or requests with an Idempotency-Key). */
  retry?: boolean;
  keepalive?: boolean;
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

/**
 * "Full jitter" backoff (AWS Architecture Blog, 2015): a uniform wait in [0, min(max, base·2^n)),
 * but never less than what the service asked for in Retry-After.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number, retryAfterSeconds?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = random() * ceiling;
  const asked = retryAfterSeconds === undefined ? 0 : retryAfterSeconds * 1000;
  return Math.min(policy.maxDelayMs, Math.max(jittered, asked));
}

const sleeper = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Transport {
  readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;
  private readonly policy: RetryPolicy;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly timeoutMs: number;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (!fetchImpl) throw new TypeError('no fetch: pass createClient({fetch})');
    this.fetchImpl = (input, init) => fetchImpl(input, init);
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? sleeper;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  url(path: string, query?: RequestOptions['query']): string {
    let url = this.baseUrl + path;
    if (query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
      const text = params.toString();
      if (text) url += `?${text}`;
    }
    return url;
  }

  headers(extra?: Record<string, string>, json = false): Record<string, string> {
    return {
      accept: 'application/json',
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      ...extra,
    };
  }

  /** One attempt: the envelope's `data` on success, a SearchloopError otherwise. */
  async once<T>(method: string, path: string, options: RequestOptions = {}, body?: string): Promise<T> {
    const controller = typeof AbortController === 'function' ? new AbortController() : undefined;
    const timer = controller ? setTimeout(() => controller.abort(), this.timeoutMs) : undefined;
    let response: Response;
    try {
      response = await this.fetchImpl(this.url(path, options.query), {
        method,
        headers: this.headers(options.headers, body !== undefined),
        ...(body !== undefined ? { body } : {}),
        ...(options.keepalive ? { keepalive: true } : {}),
        ...(controller ? { signal: controller.signal } : {}),
      });
    } catch (cause) {
      const timedOut = controller?.signal.aborted ?? false;
      throw new SearchloopError({
        code: timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
        status: 0,
        message: timedOut ? `no answer within ${this.timeoutMs} ms` : `network error: ${(cause as Error)?.message ?? cause}`,
      });
    } finally {
      if (timer) clearTimeout(timer);
    }
    const text = await response.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const envelope = parsed as { success?: boolean; data?: unknown; error?: Record<string, unknown> } | undefined;
    if (response.ok) return (envelope && 'data' in envelope ? envelope.data : (parsed ?? text)) as T;
    const error = envelope?.error ?? {};
    throw new SearchloopError({
      code: typeof error.code === 'string' ? error.code : `HTTP_${response.status}`,
      status: response.status,
      message: typeof error.message === 'string' ? error.message : `HTTP ${response.status}`,
      details: Array.isArray(error.details) ? (error.details as ErrorDetail[]) : [],
      requestId: typeof error.requestId === 'string' ? error.requestId : (response.headers.get('x-request-id') ?? undefined),
      retryAfter: parseRetryAfter(response.headers.get('retry-after')),
    });
  }

  /** With retries on network errors, 408, 429 and 5xx, waiting backoff or Retry-After between attempts. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const retry = options.retry ?? (method === 'GET' || method === 'PUT' || method === 'DELETE' || !!options.headers?.['idempotency-key']);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(method, path, options, body);
      } catch (error) {
        if (!(error instanceof SearchloopError) || !retry || !isRetryable(error) || attempt + 1 >= this.policy.attempts) throw error;
        await this.sleep(backoffDelay(attempt, this.policy, this.random, error.retryAfter));
      }
    }
  }
}
