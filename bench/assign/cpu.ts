/**
 * bench/assign/cpu: CPU time the server process spends per assign request (every thread, user +
 * system, from /proc/<pid>/stat) at a fixed open-loop rate, with 1 and 3 running experiments, on
 * SQLite and PostgreSQL. With BASELINE (a directory holding another build's dist/, e.g. a copy of
 * dist/ made before a change) the two builds are measured in alternating rounds, so both see the
 * same machine load; on a shared machine that comparison holds where throughput figures swing.
 *
 *   npm run bench:assign-cpu                (BASELINE=<dir with dist/> CANDIDATE=<dir with dist/> RATE=400 DURATION=8 ROUNDS=2
 *                                            PROFILE=<dir>: write a --cpu-prof per server run there)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAverage, runLoad } from '../support/load.js';
import { buildsToCompare, inRoundOrder } from '../support/builds.js';
import { ASSIGN_BODY, processCpuSeconds, startBenchExperiments } from '../support/experiments.js';
import { machineLine, startProcess, type ServerProcess } from '../support/processes.js';
import { createPgSchema, databasesToRun, dropPgSchema, PG_URL } from '../support/postgres.js';

const RATE = Number(process.env.RATE ?? 400);
const DURATION = Number(process.env.DURATION ?? 8);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const PROFILE = process.env.PROFILE ? path.resolve(process.env.PROFILE) : undefined;
const DATABASES = databasesToRun('SQLite,PostgreSQL');
const body = ASSIGN_BODY;
const ASSIGN = '/api/nous/ab-testing/assign';

async function cpuPerRequest(server: ServerProcess): Promise<{ cpuUs: number; p99: number; achieved: number }> {
  await runLoad({ url: server.url + ASSIGN, connections: CONNECTIONS, durationSeconds: 2, body, overallRate: RATE });
  const before = processCpuSeconds(server.child.pid!);
  const r = await runLoad({ url: server.url + ASSIGN, connections: CONNECTIONS, durationSeconds: DURATION, body, overallRate: RATE });
  // Let the commits and background work this load caused finish inside the window.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return { cpuUs: ((processCpuSeconds(server.child.pid!) - before) * 1e6) / r.requests, p99: r.p99, achieved: r.rps };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-assign-cpu-'));
const rows: { round: number; build: string; db: string; experiments: number; cpuUs: number; p99: number; load: string }[] = [];
const builds = buildsToCompare();
let n = 0;
for (let round = 1; round <= ROUNDS; round += 1) {
  const ordered = inRoundOrder(builds, round);
  for (const db of DATABASES) {
    for (const [label, root] of ordered) {
      n += 1;
      const schema = `bench_assign_cpu_${n}_${Date.now()}`;
      if (db === 'PostgreSQL') await createPgSchema(schema);
      const env: Record<string, string> =
        db === 'SQLite' ? { DATABASE_URL: `sqlite://${tmp}/cpu-${n}.db` } : { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema };
      const profile = PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`, `--cpu-prof-name=${label.replace(' ', '-')}-${db}-${n}.cpuprofile`]
        : [];
      const server = await startProcess(
        process.execPath,
        [...profile, path.join(root, 'dist/cli/cli.js'), 'serve'],
        { LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', ...env },
        3750 + n,
      );
      try {
        await startBenchExperiments(server.url, [0], 'cpu');
        const one = await cpuPerRequest(server);
        rows.push({ round, build: label, db, experiments: 1, ...one, load: loadAverage() });
        process.stderr.write(`round ${round} ${label} ${db} 1 experiment: ${one.cpuUs.toFixed(0)} µs (${loadAverage()})\n`);
        await startBenchExperiments(server.url, [1, 2], 'cpu');
        const three = await cpuPerRequest(server);
        rows.push({ round, build: label, db, experiments: 3, ...three, load: loadAverage() });
        process.stderr.write(`round ${round} ${label} ${db} 3 experiments: ${three.cpuUs.toFixed(0)} µs (${loadAverage()})\n`);
      } finally {
        await server.stop();
        if (db === 'PostgreSQL') await dropPgSchema(schema).catch(() => undefined);
      }
    }
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

console.log(`\nbench/assign/cpu — ${new Date().toISOString().slice(0, 16)} — ${machineLine()}`);
console.log(
  `open loop at ${RATE} req/s, ${CONNECTIONS} connections, ${DURATION} s per case, every request a new unit; CPU of the server process (all threads) per request\n`,
);
console.log('| round | build | database | experiments | CPU µs / request | p99 ms | load average 1/5/15 |');
console.log('|---:|---|---|---:|---:|---:|---|');
for (const r of rows) {
  console.log(`| ${r.round} | ${r.build} | ${r.db} | ${r.experiments} | ${r.cpuUs.toFixed(0)} | ${r.p99} | ${r.load} |`);
}
console.log("\nPostgreSQL's own CPU is not in these figures (it is a separate process).");
