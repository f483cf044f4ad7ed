import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  method?: 'POST' | 'GET';
  /** The request body; each `[<id>]` in it becomes a fresh UUID per request (autocannon's idReplacement). */
  body?: string;
  headers?: Record<string, string>;
  /**
   * Open loop: offer this many requests per second in total (autocannon's overallRate), however
   * fast the server answers, so latency is measured at a fixed load instead of at saturation.
   * The connections must be enough to keep the rate when answers slow down (rate × latency).
   */
  overallRate?: number;
}

/** Runs autocannon against one URL and returns throughput and latency percentiles (ms). */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    method: options.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.overallRate !== undefined ? { overallRate: Math.max(1, Math.round(options.overallRate)) } : {}),
    ...(options.body !== undefined ? { body: options.body, idReplacement: options.body.includes('[<id>]') } : {}),
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** The load average line (1, 5, 15 minutes) of this shared machine, for the raw output. */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}
