import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';

const WORKER = path.join(import.meta.dirname, 'load-worker.ts');

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  /** Open loop: requests the paced load offered (sent or due) in the run. */
  offered?: number;
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
   * Open loop: offer this many requests per second in total, evenly spaced (bench/support/paced.ts),
   * however fast the server answers, so latency is measured at a fixed load instead of at
   * saturation; latency counts from when each request was due. The connections must be enough to
   * keep the rate when answers slow down (rate × latency); requests due with none free wait for one.
   */
  overallRate?: number;
}

/**
 * Runs autocannon against one URL in a child process of its own (bench/support/load-worker.ts) and
 * returns throughput and latency percentiles (ms). In its own process the load generator's event
 * loop is shared neither with the benchmark script nor with a second load running at the same time.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const out: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  child.stdin.end(JSON.stringify(options));
  const code = await exited;
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  return JSON.parse(Buffer.concat(out).toString('utf8')) as LoadResult;
}

/** The load average line (1, 5, 15 minutes) of this shared machine, for the raw output. */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}
