/**
 * bench/ingest/cpu: CPU time the server process spends per request (every thread, user + system,
 * from /proc/<pid>/stat) at a fixed open-loop rate, for the bare routes, a baseline build and this
 * build, single-item ingest and assignment with 3 running experiments, on SQLite and PostgreSQL.
 * On a shared 2-core machine throughput ratios swing with other jobs; CPU per request barely does,
 * so its ratio to the bare route says what share of the ceiling the service would reach on an
 * otherwise idle core.
 *
 *   npm run bench:ingest-cpu                         (BASELINE=<checkout of the build to compare> RATE=400 DURATION=10
 *                                                     WARMUP=20 ROUNDS=1 DATABASES=SQLite,PostgreSQL ASSIGN=1
 *                                                     PROFILE=<dir>: a --cpu-prof per server run, for bench:profile-top)
 *
 * WARMUP: seconds of the same load before each measured window. V8 keeps optimizing (TurboFan, on
 * its helper threads) for tens of seconds at 400 req/s; with 2 s of warm-up those compile jobs were
 * about 300 µs per ingest request of the measured CPU (perf, 2026-11-29), a start-up cost rather
 * than a per-request one. 20 s leaves them out, for the bare routes and both builds alike.
 *
 * BASELINE is optional: a built checkout of another revision (e.g. `git worktree add ../base main
 * && (cd ../base && npm ci)`); without it only this build and the bare routes are measured.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAverage, runLoad } from '../support/load.js';
import { machineLine, startProcess, type ServerProcess } from '../support/processes.js';
import { buildsToCompare, inRoundOrder, ROOT } from '../support/builds.js';
import { ASSIGN_BODY, processCpuSeconds, startBenchExperiments } from '../support/experiments.js';
import { createPgSchema, dropPgSchema, PG_URL } from '../support/postgres.js';
import { feedbackBody } from './bodies.js';

const RATE = Number(process.env.RATE ?? 400);
const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const DATABASES = (process.env.DATABASES ?? 'SQLite,PostgreSQL').split(',') as ('SQLite' | 'PostgreSQL')[];
const ASSIGN = process.env.ASSIGN !== '0';
const WARMUP = Number(process.env.WARMUP ?? 20);
const PROFILE = process.env.PROFILE ? path.resolve(process.env.PROFILE) : undefined;
/** CPU seconds by thread id, with each thread's name (libuv pool, V8 workers, the fold and checkpoint threads…). */
function threadCpu(pid: number): Map<string, { name: string; seconds: number }> {
  const out = new Map<string, { name: string; seconds: number }>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = tid === String(pid) ? 'main' : fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out.set(tid, { name, seconds: (Number(f[11]) + Number(f[12])) / 100 });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** µs per request by thread name between two snapshots (threads started in between count from zero). */
function byThreadName(before: ReturnType<typeof threadCpu>, after: ReturnType<typeof threadCpu>, requests: number): string {
  const sums = new Map<string, number>();
  for (const [tid, t] of after) sums.set(t.name, (sums.get(t.name) ?? 0) + t.seconds - (before.get(tid)?.seconds ?? 0));
  return [...sums]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, s]) => `${name} ${((s * 1e6) / requests).toFixed(0)}`)
    .join(', ');
}

const rows: { name: string; cpuUs: number; mainUs: number; achieved: number; p99: number }[] = [];

/** CPU seconds of the main thread (its tid is the pid), to split the event loop's share from the threads' (folds, commits, GC). */
function mainThreadCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}
async function measure(name: string, server: ServerProcess, urlPath: string, body: string) {
  await runLoad({ url: server.url + urlPath, connections: 32, durationSeconds: WARMUP, body, overallRate: RATE });
  const before = processCpuSeconds(server.child.pid!);
  const mainBefore = mainThreadCpuSeconds(server.child.pid!);
  const threadsBefore = threadCpu(server.child.pid!);
  const r = await runLoad({ url: server.url + urlPath, connections: 32, durationSeconds: DURATION, body, overallRate: RATE });
  // Let the commits and background work this load caused finish inside the window.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const cpu = processCpuSeconds(server.child.pid!) - before;
  const main = mainThreadCpuSeconds(server.child.pid!) - mainBefore;
  process.stderr.write(`  µs per request by thread: ${byThreadName(threadsBefore, threadCpu(server.child.pid!), r.requests)}\n`);
  rows.push({ name, cpuUs: (cpu * 1e6) / r.requests, mainUs: (main * 1e6) / r.requests, achieved: r.rps, p99: r.p99 });
  process.stderr.write(
    `${name}: ${((cpu * 1e6) / r.requests).toFixed(0)} µs CPU per request (main thread ${((main * 1e6) / r.requests).toFixed(0)}) (${loadAverage()})\n`,
  );
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cpu-'));
const serve = (root: string, env: Record<string, string>, port: number, profileName: string) =>
  startProcess(
    process.execPath,
    [
      // One directory per run: the main thread and each worker thread (the fold's) write their own profile there.
      ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE, profileName)}`] : []),
      path.join(root, 'dist/cli/cli.js'),
      'serve',
    ],
    { LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', ...env },
    port,
  );
const loads = [loadAverage()];

const ingestCeiling = await startProcess(
  process.execPath,
  ['--import', 'tsx', path.join(ROOT, 'bench/ingest/ceiling-server.ts')],
  {},
  3700,
);
await measure('ingest: bare route (parse + validate, constant 201)', ingestCeiling, '/api/cortex/feedback', feedbackBody(1));
await ingestCeiling.stop();
if (ASSIGN) {
  const assignCeiling = await startProcess(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/assign/ceiling-server.ts')],
    { RESPONSE_BYTES: '700' },
    3701,
  );
  await measure('assign: bare route (constant answer)', assignCeiling, '/api/nous/ab-testing/assign', ASSIGN_BODY);
  await assignCeiling.stop();
}

let n = 0;
const builds = buildsToCompare();
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const db of DATABASES) {
    // Alternate which build goes first each round, so a drift in machine load favours neither.
    for (const [label, root] of inRoundOrder(builds, round)) {
      n += 1;
      const schema = `bench_cpu_${n}_${Date.now()}`;
      if (db === 'PostgreSQL') await createPgSchema(schema);
      const env: Record<string, string> =
        db === 'SQLite' ? { DATABASE_URL: `sqlite://${tmp}/cpu-${n}.db` } : { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema };
      const server = await serve(root, env, 3710 + n, `${label.replace(' ', '-')}-${db}-${n}`);
      const tag = ROUNDS > 1 ? ` (round ${round})` : '';
      try {
        await measure(`ingest, 1 item: ${label}, ${db}${tag}`, server, '/api/cortex/feedback', feedbackBody(1));
        if (ASSIGN) {
          await startBenchExperiments(server.url, [0, 1, 2], 'cpu');
          await measure(`assign, 3 experiments: ${label}, ${db}${tag}`, server, '/api/nous/ab-testing/assign', ASSIGN_BODY);
        }
      } finally {
        await server.stop();
        if (db === 'PostgreSQL') await dropPgSchema(schema).catch(() => undefined);
      }
      loads.push(loadAverage());
    }
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

console.log(`\nbench/ingest/cpu — ${new Date().toISOString().slice(0, 10)} — ${machineLine()}`);
console.log(
  `open loop at ${RATE} req/s, ${DURATION} s per case after ${WARMUP} s of warm-up; CPU of the server process (all threads) per request; baseline ${process.env.BASELINE ?? 'none'}\n`,
);
console.log(
  '| case | CPU µs / request | of which the main thread | bare route ÷ this (share of the ceiling on one idle core) | achieved req/s | p99 ms |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const bare = rows.find((x) => x.name.startsWith(r.name.split(/[,:]/)[0]!) && x.name.includes('bare route'))!;
  const share = r === bare ? '' : `${((100 * bare.cpuUs) / r.cpuUs).toFixed(0)} %`;
  console.log(`| ${r.name} | ${r.cpuUs.toFixed(0)} | ${r.mainUs.toFixed(0)} | ${share} | ${r.achieved.toFixed(0)} | ${r.p99} |`);
}
console.log("\nPostgreSQL's own CPU is not in these figures (it is a separate process).");
console.log(`load average (1/5/15 min) at the start and after each database: ${loads.join(' · ')}`);
