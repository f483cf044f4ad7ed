/**
 * bench/throughput: issue 28's throughput goals (assign ≥ 75 % and single-item ingest ≥ 50 % of a
 * bare Fastify route measured in the same run), the way the issue states them: DURATION=10 s,
 * 64 connections, closed loop, the bare route and Searchloop alternating, ROUNDS=3 rounds, each
 * round reported. Bare routes: bench/assign/ceiling-server.ts (a constant of assign's answer size)
 * and bench/ingest/ceiling-server.ts (parse + validate the same feedback schema, write nothing).
 * Searchloop runs one instance per endpoint and database (assign with 1 running experiment, every
 * request a new unit); after each run the bench waits until that server is quiet (its background
 * folds done, up to 30 s) so one run’s leftovers are not charged to the next. The load runs in
 * a child process of its own (bench/support/load.ts, client bench/support/paced.ts).
 *
 *   npm run bench:throughput    (DURATION=10 CONNECTIONS=64 ROUNDS=3 DATABASES=SQLite,PostgreSQL BUILD=<dir with dist/> OUT=<file>
 *                                BASELINE=<dir with another build's dist/>: that build too, in the same rounds; QUIET=30)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ASSIGN_BODY, startBenchExperiments } from '../support/experiments.js';
import { feedbackBody } from '../ingest/bodies.js';
import { loadAverage, runLoad, type LoadResult } from '../support/load.js';
import { freePort, machineLine, startBenchServer, startProcess, waitQuiet, type ServerProcess } from '../support/processes.js';
import { createPgSchema, databasesToRun, dropPgSchema, PG_URL } from '../support/postgres.js';
import { report } from '../support/report.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILD = process.env.BUILD ? path.resolve(process.env.BUILD) : ROOT;
const OUT = path.resolve(process.env.OUT ?? path.join(import.meta.dirname, 'last-run.txt'));
const DATABASES = databasesToRun('SQLite,PostgreSQL');
const ENDPOINTS = [
  { name: 'assign', path: '/api/nous/ab-testing/assign', body: ASSIGN_BODY, goal: 0.75 },
  { name: 'ingest (1 item)', path: '/api/cortex/feedback', body: feedbackBody(1), goal: 0.5 },
] as const;
const startedAt = new Date();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-throughput-'));
const schemas: string[] = [];
const servers: ServerProcess[] = [];

const tsxServer = async (file: string, env: Record<string, string> = {}) => {
  const s = await startBenchServer(file, env);
  servers.push(s);
  return s;
};
/** This build, and with BASELINE (a directory holding another build's dist/) that one too, as "<database> (baseline)". */
const BUILDS: [suffix: string, root: string][] = [
  ['', BUILD],
  ...(process.env.BASELINE ? [[' (baseline)', path.resolve(process.env.BASELINE)] as [string, string]] : []),
];
const QUIET = Number(process.env.QUIET ?? 30);
async function searchloop(db: string, label: string, root: string): Promise<ServerProcess> {
  let env: Record<string, string>;
  const safe = label.replace(/\W/g, '_');
  if (db === 'SQLite') env = { DATABASE_URL: `sqlite://${tmp}/${safe}.db` };
  else {
    const schema = `bench_tp_${safe}_${Date.now()}`;
    await createPgSchema(schema);
    schemas.push(schema);
    env = { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema };
  }
  const s = await startProcess(
    process.execPath,
    [path.join(root, 'dist/cli/cli.js'), 'serve'],
    { LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', ...env },
    await freePort(),
  );
  servers.push(s);
  return s;
}

interface Run {
  round: number;
  endpoint: string;
  target: string;
  result: LoadResult;
  load: string;
}
const runs: Run[] = [];
const out = report(OUT);
try {
  // Each endpoint: the bare route first, then Searchloop on each database.
  const targets: { endpoint: (typeof ENDPOINTS)[number]; target: string; server: ServerProcess }[] = [];
  const assignSamples: number[] = [];
  for (const db of DATABASES)
    for (const [suffix, root] of BUILDS) {
      const s = await searchloop(db, `assign${suffix}`, root);
      await startBenchExperiments(s.url, [0], 'bench');
      const sample = await fetch(s.url + ENDPOINTS[0].path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: ASSIGN_BODY.replace('[<id>]', 'sample'),
      });
      assignSamples.push((await sample.text()).length);
      targets.push({ endpoint: ENDPOINTS[0], target: db + suffix, server: s });
    }
  targets.unshift({
    endpoint: ENDPOINTS[0],
    target: 'bare',
    server: await tsxServer('assign/ceiling-server.ts', { RESPONSE_BYTES: String(assignSamples[0] ?? 300) }),
  });
  targets.push({ endpoint: ENDPOINTS[1], target: 'bare', server: await tsxServer('ingest/ceiling-server.ts') });
  for (const db of DATABASES)
    for (const [suffix, root] of BUILDS)
      targets.push({ endpoint: ENDPOINTS[1], target: db + suffix, server: await searchloop(db, `ingest${suffix}`, root) });

  for (let round = 1; round <= ROUNDS; round += 1) {
    // Alternate the order each round, so a drift in the machine's load favours neither side.
    const order = round % 2 === 1 ? targets : [...targets].reverse();
    for (const { endpoint, target, server } of order) {
      const url = server.url + endpoint.path;
      await runLoad({ url, connections: CONNECTIONS, durationSeconds: 2, body: endpoint.body });
      const result = await runLoad({ url, connections: CONNECTIONS, durationSeconds: DURATION, body: endpoint.body });
      runs.push({ round, endpoint: endpoint.name, target, result, load: loadAverage() });
      process.stderr.write(`round ${round} ${endpoint.name} ${target}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms\n`);
      await waitQuiet(server.child.pid!, QUIET);
    }
  }
} finally {
  for (const s of servers) await s.stop();
  for (const s of schemas) await dropPgSchema(s).catch(() => undefined);
  fs.rmSync(tmp, { recursive: true, force: true });
}

out.log(
  `bench/throughput — ${startedAt.toISOString().slice(0, 16)}Z — ${machineLine()}${BUILD === ROOT ? '' : ` — build ${path.relative(ROOT, BUILD)}`}${BUILDS[1] ? ` — baseline build ${BUILDS[1][1]}` : ''}`,
);
out.log(
  `closed loop, ${CONNECTIONS} connections, ${DURATION} s per run (after 2 s of warm-up), the bare route and Searchloop alternating, ${ROUNDS} rounds; the load generator (bench/support/paced.ts) in its own process; assign: 1 running experiment, every request a new unit; ingest: 1 item per request, committed before its 201\n`,
);
out.log('| round | endpoint | server | req/s | p50 ms | p99 ms | of bare (same round) | goal | errors/non-2xx | load avg after |');
out.log('|---:|---|---|---:|---:|---:|---:|---|---:|---|');
const summary = new Map<string, number[]>();
for (const r of runs) {
  const bare = runs.find((x) => x.round === r.round && x.endpoint === r.endpoint && x.target === 'bare')!;
  const goal = ENDPOINTS.find((e) => e.name === r.endpoint)!.goal;
  const share = r.result.rps / bare.result.rps;
  if (r.target !== 'bare') summary.set(`${r.endpoint} | ${r.target}`, [...(summary.get(`${r.endpoint} | ${r.target}`) ?? []), share]);
  const ofBare = r.target === 'bare' ? '' : `${(100 * share).toFixed(0)} %`;
  const met = r.target === 'bare' ? '' : `≥ ${goal * 100} %: ${share >= goal ? 'met' : 'not met'}`;
  out.log(
    `| ${r.round} | ${r.endpoint} | ${r.target} | ${r.result.rps.toFixed(0)} | ${r.result.p50} | ${r.result.p99} | ${ofBare} | ${met} | ${r.result.errors}/${r.result.non2xx} | ${r.load} |`,
  );
}
out.log('\n| endpoint | database | share of bare, each round | goal |');
out.log('|---|---|---|---|');
for (const [key, shares] of summary) {
  const goal = ENDPOINTS.find((e) => key.startsWith(e.name))!.goal;
  const met = shares.every((s) => s >= goal) ? 'met every round' : shares.some((s) => s >= goal) ? 'met in some rounds' : 'not met';
  out.log(`| ${key} | ${shares.map((s) => `${(100 * s).toFixed(0)} %`).join(', ')} | ≥ ${goal * 100} %: ${met} |`);
}
out.save();
process.stderr.write(`written to ${path.relative(ROOT, OUT)}\n`);
