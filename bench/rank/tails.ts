/**
 * bench/rank/tails: what makes the search-time tail. One server under `node --cpu-prof`, one case
 * at a fixed open-loop rate; then the event loop's busy stretches longer than THRESHOLD ms, each
 * with the code that ran in it, summed by job (bench/support/long-tasks.ts). A p99 is set by
 * these stretches, not by the mean cost a throughput profile shows.
 *
 *   npm run bench:rank-tails   (CASE=alias|ab|draft|assign|ingest  RATE=req/s  DURATION=10
 *                               DATABASE=SQLite|PostgreSQL  THRESHOLD=4  MIX_INGEST=req/s to add ingestion
 *                               BUILD=<directory with another build's dist/>)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { feedbackBody } from '../ingest/bodies.js';
import { ASSIGN_BODY, startBenchExperiments } from '../support/experiments.js';
import { runLoad, type LoadResult } from '../support/load.js';
import { longTasks, summarize } from '../support/long-tasks.js';
import { createPgSchema, dropPgSchema, PG_URL } from '../support/postgres.js';
import { freePort, startProcess, waitQuiet } from '../support/processes.js';
import { rankBody } from './bodies.js';
import { AB_CONFIGURATION, DRAFT_CONFIGURATION, setProductionAlias, startExperiment, trainRanker } from './setup.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILD = process.env.BUILD ? path.resolve(process.env.BUILD) : ROOT;
const CASE = process.env.CASE ?? 'alias';
const RATE = Number(process.env.RATE ?? 400);
const DURATION = Number(process.env.DURATION ?? 10);
const THRESHOLD = Number(process.env.THRESHOLD ?? 4);
const DATABASE = process.env.DATABASE ?? 'SQLite';
const MIX_INGEST = Number(process.env.MIX_INGEST ?? 0);
/** PROFILE=0: no profiler, only the load's figures (RATE=0: closed loop, the maximum). */
const PROFILE = process.env.PROFILE !== '0';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tails-'));
const schema = `bench_tails_${Date.now()}`;
const env: Record<string, string> =
  DATABASE === 'PostgreSQL' ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema } : { DATABASE_URL: `sqlite://${dir}/bench.db` };
if (DATABASE === 'PostgreSQL') await createPgSchema(schema);
const server = await startProcess(
  process.execPath,
  [...(PROFILE ? ['--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', dir] : []), path.join(BUILD, 'dist/cli/cli.js'), 'serve'],
  { LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', BODY_LIMIT_BYTES: String(64 * 1024 * 1024), ...env },
  await freePort(),
);
let result: LoadResult;
let ingest: LoadResult | undefined;
try {
  let target = '/api/nous/rank';
  let body = rankBody();
  if (CASE !== 'assign' && CASE !== 'ingest') {
    await trainRanker(server.url, 'bench', 100, 31);
    await setProductionAlias(server.url, 'bench');
  }
  if (CASE === 'ab') {
    await startExperiment(server.url, 'bench-ab', AB_CONFIGURATION);
  } else if (CASE === 'draft') {
    await trainRanker(server.url, 'bench2', 50, 15);
    await startExperiment(server.url, 'bench-draft', DRAFT_CONFIGURATION);
  } else if (CASE === 'assign') {
    await startBenchExperiments(server.url, [0], 'bench');
    target = '/api/nous/ab-testing/assign';
    body = ASSIGN_BODY;
  } else if (CASE === 'ingest') {
    target = '/api/cortex/feedback';
    body = feedbackBody(1);
  }
  const url = server.url + target;
  const run = (u: string, b: string, rate: number, seconds = DURATION) =>
    runLoad({ url: u, connections: 64, durationSeconds: seconds, body: b, ...(rate > 0 ? { overallRate: rate } : {}) });
  await run(url, body, RATE, 2); // warm-up: JIT, caches, connections
  await waitQuiet(server.child.pid!, 30);
  [result, ingest] = await Promise.all([
    run(url, body, RATE),
    MIX_INGEST > 0 ? run(`${server.url}/api/cortex/feedback`, feedbackBody(1), MIX_INGEST) : Promise.resolve(undefined),
  ]);
} finally {
  await server.stop();
  if (DATABASE === 'PostgreSQL') await dropPgSchema(schema).catch(() => undefined);
}
const out = (s: string) => process.stdout.write(`${s}\n`);
if (!PROFILE) {
  out(
    `${CASE} on ${DATABASE}, ${RATE || 'closed loop'}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p90 ${result.p90} ms, p99 ${result.p99} ms, max ${result.max} ms`,
  );
  if (ingest) out(`ingestion: ${ingest.rps.toFixed(0)} req/s, p50 ${ingest.p50} ms, p99 ${ingest.p99} ms`);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
const profile = fs.readdirSync(dir).find((f) => f.endsWith('.0.001.cpuprofile'));
if (!profile) throw new Error('the server wrote no CPU profile');
const tasks = longTasks(path.join(dir, profile), THRESHOLD);
out(
  `bench/rank/tails — ${new Date().toISOString().slice(0, 16)}Z — ${CASE} on ${DATABASE}, ${RATE} req/s open loop for ${DURATION} s${MIX_INGEST ? `, with ingestion at ${MIX_INGEST} req/s` : ''}`,
);
out(`load: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p90 ${result.p90} ms, p99 ${result.p99} ms, max ${result.max} ms`);
if (ingest) out(`ingestion: ${ingest.rps.toFixed(0)} req/s, p50 ${ingest.p50} ms, p99 ${ingest.p99} ms, max ${ingest.max} ms`);
const last = tasks.filter((t) => t.startMs >= tasks.at(-1)!.startMs - (DURATION + 1) * 1000);
out(`\nEvent-loop stretches ≥ ${THRESHOLD} ms in the last ${DURATION + 1} s of the profile: ${last.length}`);
out('| job (outermost project frame) | stretches | total ms |');
out('|---|---:|---:|');
for (const [name, ms, n] of summarize(last).slice(0, 15)) out(`| ${name} | ${n} | ${ms.toFixed(1)} |`);
out('\nThe 10 longest:');
for (const t of [...last].sort((a, b) => b.durationMs - a.durationMs).slice(0, 10)) {
  out(`- ${t.durationMs.toFixed(1)} ms: ${t.entries.map(([n, s]) => `${n} ${(s * 100).toFixed(0)} %`).join(', ')}`);
  out(`  self: ${t.self.map(([n, s]) => `${n} ${(s * 100).toFixed(0)} %`).join(', ')}`);
}
if (process.env.KEEP) out(`\nprofile kept: ${path.join(dir, profile)}`);
else fs.rmSync(dir, { recursive: true, force: true });
