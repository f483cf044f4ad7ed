/**
 * The load generator's own process: reads one autocannon options object (JSON) from stdin, runs
 * it with the client in bench/support/paced.ts (closed loop, or open loop when overallRate is given;
 * LOAD_CLIENT=autocannon runs a closed loop with autocannon instead, to compare the two),
 * and writes the result's figures (JSON) to stdout. bench/support/load.ts starts one per run,
 * so the load never shares an event loop with the benchmark script or with another load.
 */
import autocannon from 'autocannon';
import type { LoadOptions, LoadResult } from './load.js';
import { pacedLoad } from './paced.js';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const options = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LoadOptions;

if (process.env.LOAD_CLIENT !== 'autocannon' || options.overallRate !== undefined) {
  process.stdout.write(JSON.stringify(await pacedLoad(options)));
  process.exit(0);
}

// LOAD_CLIENT=autocannon: the closed loop by autocannon, to compare the two clients.
const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.durationSeconds,
  method: options.method ?? 'POST',
  headers: { 'content-type': 'application/json', ...options.headers },
  ...(options.body !== undefined ? { body: options.body, idReplacement: options.body.includes('[<id>]') } : {}),
});
const figures: LoadResult = {
  requests: result.requests.total,
  rps: result.requests.average,
  p50: result.latency.p50,
  p90: result.latency.p90,
  p99: result.latency.p99,
  max: result.latency.max,
  errors: result.errors + result.timeouts,
  non2xx: result.non2xx,
};
process.stdout.write(JSON.stringify(figures));
