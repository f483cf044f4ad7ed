/**
 * bench/assign: assignment requests per second and p99 at 64 connections, side by side with a
 * bare Fastify route returning a constant of the same size (the framework's ceiling here), on
 * SQLite and PostgreSQL. Every request is a new unit, so every call writes an exposure.
 *
 * Each Searchloop case is followed by an open-loop run at half the maximum it just measured
 * (requests evenly spaced by bench/support/paced.ts: 50 % utilisation), where the latency goal is set.
 *
 *   npm run bench:assign                 (DURATION=15 CONNECTIONS=64 BENCH_PG_URL=postgres://…
 *                                         BUILD=<directory with another build's dist/> to measure that build)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAverage, runLoad, type LoadResult } from '../support/load.js';
import { ASSIGN_BODY, startBenchExperiments } from '../support/experiments.js';
import { machineLine, startProcess, type ServerProcess } from '../support/processes.js';
import { createPgSchema, dropPgSchema, PG_URL } from '../support/postgres.js';

const DURATION = Number(process.env.DURATION ?? 15);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILD = process.env.BUILD ? path.resolve(process.env.BUILD) : ROOT;
const body = ASSIGN_BODY;

/** Starts the first benchmark experiment, or the other two; answers the size of a sample assign response. */
async function setUpExperiments(server: ServerProcess, which: 'first' | 'rest'): Promise<number> {
  await startBenchExperiments(server.url, which === 'first' ? [0] : [1, 2], 'bench');
  const sample = await fetch(`${server.url}/api/nous/ab-testing/assign`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body.replace('[<id>]', 'sample-unit'),
  });
  return (await sample.text()).length;
}

const rows: { name: string; result: LoadResult; open?: LoadResult; offered?: number }[] = [];
const loadAverages: string[] = [loadAverage()];
async function measure(name: string, server: ServerProcess) {
  await runLoad({ url: `${server.url}/api/nous/ab-testing/assign`, connections: CONNECTIONS, durationSeconds: 2, body }); // warm-up
  const result = await runLoad({
    url: `${server.url}/api/nous/ab-testing/assign`,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    body,
  });
  const row: (typeof rows)[number] = { name, result };
  rows.push(row);
  process.stderr.write(`${name}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms\n`);
  if (name.startsWith('ceiling')) return;
  row.offered = result.rps / 2;
  row.open = await runLoad({
    url: `${server.url}/api/nous/ab-testing/assign`,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    body,
    overallRate: row.offered,
  });
  loadAverages.push(loadAverage());
  process.stderr.write(`${name} open loop at ${row.offered.toFixed(0)} req/s: p99 ${row.open.p99} ms\n`);
}

const tsx = ['--import', 'tsx'];
const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-assign-'));
const searchloop = (env: Record<string, string>, port: number) =>
  startProcess(
    process.execPath,
    [path.join(BUILD, 'dist/cli/cli.js'), 'serve'],
    { LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', ...env },
    port,
  );

const sqlite = await searchloop({ DATABASE_URL: `sqlite://${sqliteDir}/bench.db` }, 3301);
const responseBytes = await setUpExperiments(sqlite, 'first');
const ceiling = await startProcess(
  process.execPath,
  [...tsx, path.join(import.meta.dirname, 'ceiling-server.ts')],
  { RESPONSE_BYTES: String(responseBytes) },
  3300,
);
await measure('ceiling: bare Fastify, constant answer', ceiling);
await ceiling.stop();
await measure('Searchloop assign, SQLite, 1 experiment', sqlite);
await setUpExperiments(sqlite, 'rest');
await measure('Searchloop assign, SQLite, 3 experiments', sqlite);
await sqlite.stop();
fs.rmSync(sqliteDir, { recursive: true, force: true });

let pgSchema: string | undefined;
try {
  pgSchema = `bench_assign_${Date.now()}`;
  await createPgSchema(pgSchema);
  const postgres = await searchloop({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: pgSchema }, 3302);
  await setUpExperiments(postgres, 'first');
  await measure('Searchloop assign, PostgreSQL, 1 experiment', postgres);
  await setUpExperiments(postgres, 'rest');
  await measure('Searchloop assign, PostgreSQL, 3 experiments', postgres);
  await postgres.stop();
} catch (error) {
  process.stderr.write(`PostgreSQL case skipped: ${(error as Error).message}\n`);
} finally {
  if (pgSchema) await dropPgSchema(pgSchema).catch(() => undefined);
}

const ceilingRps = rows[0]!.result.rps;
console.log(
  `\nbench/assign — ${new Date().toISOString().slice(0, 16)} — ${machineLine()}${BUILD === ROOT ? '' : ` — build ${path.relative(ROOT, BUILD)}`}`,
);
console.log(
  `${CONNECTIONS} connections, ${DURATION} s per case, every request a new unit (an exposure write per enrolled experiment, group-committed); 1-experiment response ${responseBytes} bytes\n`,
);
console.log(
  '| case | req/s | p50 ms | p99 ms | of ceiling | open loop: offered req/s | achieved | p50 ms | p99 ms | max ms | errors/non-2xx |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const { name, result, open, offered } of rows) {
  const o = open ? `${offered!.toFixed(0)} | ${open.rps.toFixed(0)} | ${open.p50} | ${open.p99} | ${open.max}` : ' |  |  |  | ';
  const errors = `${result.errors + (open?.errors ?? 0)}/${result.non2xx + (open?.non2xx ?? 0)}`;
  console.log(
    `| ${name} | ${result.rps.toFixed(0)} | ${result.p50} | ${result.p99} | ${((100 * result.rps) / ceilingRps).toFixed(0)} % | ${o} | ${errors} |`,
  );
}
console.log(`\nload average (1/5/15 min) at the start and after each open-loop case: ${loadAverages.join(' · ')}`);
