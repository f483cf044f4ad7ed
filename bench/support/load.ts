import autocannon from 'autocannon';

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
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
}

/** Runs autocannon against one URL and returns throughput and latency percentiles (ms). */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    method: options.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.body !== undefined ? { body: options.body, idReplacement: options.body.includes('[<id>]') } : {}),
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
