/**
 * bench/rank: the search-time path over real HTTP (issue 28). A started server process, the load
 * generator (bench/support/paced.ts) in a process of its own per run, open loop at 10, 25, 50 and 75 % of
 * each case's measured maximum plus the maximum itself (closed loop, CONNECTIONS connections):
 *   - rank on the production alias, in an A/B arm, in a team draft of two rankers
 *     (100 results × 40 features, a 100-tree 31-leaf ranker trained on the server over HTTP);
 *   - assign with 1 and with 3 running experiments (bench/support/experiments.ts), new units;
 *   - mixed: rank, and assign, at half their maximum while single-item ingestion runs at half of
 *     its own maximum (measured on the same instance) on the same instance;
 * each on SQLite and PostgreSQL, and a bare Fastify route that parses the same rank body and
 * answers its list in order: swept at the start and the end of the run, and its maximum measured
 * again right before each rank case's (the share of bare is taken against that one). Last, the
 * in-process service-time floor (app.inject, bench/rank/floor.ts) in a child process.
 *
 *   npm run bench:rank     (DURATION=10 CONNECTIONS=64 DATABASES=SQLite,PostgreSQL FLOOR=0 to skip the floor
 *                           BUILD=<directory with another build's dist/> OUT=<raw-output file, default bench/rank/last-run.txt>)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ASSIGN_BODY, startBenchExperiments } from '../support/experiments.js';
import { feedbackBody } from '../ingest/bodies.js';
import { loadAverage, runLoad } from '../support/load.js';
import { freePort, machineLine, startBenchServer, startProcess, waitQuiet, type ServerProcess } from '../support/processes.js';
import { createPgSchema, databasesToRun, dropPgSchema, PG_URL } from '../support/postgres.js';
import { report } from '../support/report.js';
import { rankBody } from './bodies.js';
import {
  AB_CONFIGURATION,
  DRAFT_CONFIGURATION,
  servedBy,
  setProductionAlias,
  startExperiment,
  stopExperiment,
  trainRanker,
} from './setup.js';
import { CONNECTIONS, DURATION, maxOf, mixed, sweep, type Mixed, type Sweep } from './sweep.js';
import { printResults } from './table.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILD = process.env.BUILD ? path.resolve(process.env.BUILD) : ROOT;
const OUT = path.resolve(process.env.OUT ?? path.join(import.meta.dirname, 'last-run.txt'));
const RANK = '/api/nous/rank';
const ASSIGN = '/api/nous/ab-testing/assign';
const FEEDBACK = '/api/cortex/feedback';
const body = rankBody();
const startedAt = new Date();
const loads = [loadAverage()];

const sweeps: Sweep[] = [];
const mixes: Mixed[] = [];
const notes: string[] = [];

const ceiling = await startBenchServer('rank/ceiling-server.ts');
const bare = async (label: string) => void sweeps.push(await sweep(label, '—', ceiling, RANK, body));

/**
 * The bare route's maximum right before a rank case's: on a shared machine whose speed drifts by
 * several times within a run, each rank case is set against the bare figure measured next to it.
 */
const bareBefore = new Map<string, number>();
async function rankSweep(name: string, db: string, server: ServerProcess): Promise<Sweep> {
  await runLoad({ url: ceiling.url + RANK, connections: CONNECTIONS, durationSeconds: 2, body });
  const b = await runLoad({ url: ceiling.url + RANK, connections: CONNECTIONS, durationSeconds: DURATION, body });
  bareBefore.set(`${name}|${db}`, b.rps);
  await waitQuiet(ceiling.child.pid!, 10);
  const s = await sweep(name, db, server, RANK, body);
  sweeps.push(s);
  return s;
}

async function onDatabase(db: string, env: Record<string, string>): Promise<void> {
  const server = await startProcess(
    process.execPath,
    [path.join(BUILD, 'dist/cli/cli.js'), 'serve'],
    { LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', BODY_LIMIT_BYTES: String(64 * 1024 * 1024), ...env },
    await freePort(),
  );
  try {
    const trees = await trainRanker(server.url, 'bench', 100, 31);
    await trainRanker(server.url, 'bench2', 50, 15);
    await setProductionAlias(server.url, 'bench');
    notes.push(`${db}: ranker 'bench' ${trees} trees × 31 leaves; 'bench2' 50 × 15 (team draft's second ranker)`);
    const sample = (label: string) =>
      servedBy(server.url, RANK, rankBody(`sample-${Date.now()}`)).then((s) => notes.push(`${db}, ${label}: served by ${s}`));
    await waitQuiet(server.child.pid!, 30);

    await sample('rank, production alias');
    const alias = await rankSweep('rank, production alias', db, server);
    const ingest1 = feedbackBody(1);
    await runLoad({ url: server.url + FEEDBACK, connections: CONNECTIONS, durationSeconds: 2, body: ingest1 });
    const ingestMax = await runLoad({ url: server.url + FEEDBACK, connections: CONNECTIONS, durationSeconds: DURATION, body: ingest1 });
    notes.push(`${db}: single-item ingestion maximum on this instance ${ingestMax.rps.toFixed(0)} req/s (p99 ${ingestMax.p99} ms)`);
    await waitQuiet(server.child.pid!, 60);
    const ingestion = { path: FEEDBACK, body: ingest1, rate: ingestMax.rps / 2 };
    mixes.push(await mixed('rank, production alias', db, server, { path: RANK, body, rate: maxOf(alias).rps / 2 }, ingestion));

    // Both arms pin the same 100-tree ranker, so every request scores it (as on the alias) and writes an exposure.
    const ab = await startExperiment(server.url, 'bench-ab', AB_CONFIGURATION);
    await sample('rank, A/B arm');
    await rankSweep('rank, A/B arm', db, server);
    await stopExperiment(server.url, ab);

    const draft = await startExperiment(server.url, 'bench-draft', DRAFT_CONFIGURATION);
    await sample('rank, team draft');
    await rankSweep('rank, team draft of 2 rankers', db, server);
    await stopExperiment(server.url, draft);

    await startBenchExperiments(server.url, [0], 'bench');
    const assign1 = await sweep('assign, 1 experiment', db, server, ASSIGN, ASSIGN_BODY);
    sweeps.push(assign1);
    mixes.push(
      await mixed('assign, 1 experiment', db, server, { path: ASSIGN, body: ASSIGN_BODY, rate: maxOf(assign1).rps / 2 }, ingestion),
    );
    await startBenchExperiments(server.url, [1, 2], 'bench');
    sweeps.push(await sweep('assign, 3 experiments', db, server, ASSIGN, ASSIGN_BODY));
    loads.push(loadAverage());
  } finally {
    await server.stop();
  }
}

const out = report(OUT);
await bare('bare Fastify: parse the rank body, answer the list in order (start)');
for (const db of databasesToRun('SQLite,PostgreSQL')) {
  if (db === 'SQLite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-rank-'));
    try {
      await onDatabase(db, { DATABASE_URL: `sqlite://${dir}/bench.db` });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } else {
    const schema = `bench_rank_${Date.now()}`;
    try {
      await createPgSchema(schema);
      await onDatabase(db, { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema });
    } catch (error) {
      process.stderr.write(`PostgreSQL cases skipped: ${(error as Error).message}\n`);
      notes.push(`PostgreSQL cases skipped: ${(error as Error).message}`);
    } finally {
      await dropPgSchema(schema).catch(() => undefined);
    }
  }
}
await bare('bare Fastify: parse the rank body, answer the list in order (end)');
await ceiling.stop();
await ceiling.stop();
loads.push(loadAverage());

out.log(
  `bench/rank — ${startedAt.toISOString().slice(0, 16)}Z — ${machineLine()}${BUILD === ROOT ? '' : ` — build ${path.relative(ROOT, BUILD)}`}`,
);
out.log(
  `Over HTTP: each server in its own process; the load generator (bench/support/paced.ts) in a child process of its own per run. Maximum = closed loop at ${CONNECTIONS} connections; then open loop at shares of it, requests evenly spaced, latency counted from when each was due; ${DURATION} s per run; rank body ${body.length} bytes (100 results × 40 features), every request a new unit and query.`,
);
printResults(out.log, sweeps, mixes, bareBefore);
for (const n of notes) out.log(`- ${n}`);
out.log(
  `\nload average (1/5/15 min) at the start, after each database, at the end: ${loads.join(' · ')} (2 cores, shared with other jobs)`,
);
if (process.env.FLOOR !== '0') {
  out.log('\nService-time floor, in process (app.inject, sequential requests, no network), SQLite:');
  out.log(
    execFileSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'floor.ts')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trimEnd(),
  );
}
out.save();
process.stderr.write(`written to ${path.relative(ROOT, OUT)}\n`);
