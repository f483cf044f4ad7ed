/**
 * The analytics fold alone on SQLite, for `node --cpu-prof`: ingests ITEMS feedback items through
 * the API (the bench's request shape), then folds the backlog and prints how long each took, the
 * fold's CPU time, and per table the statements it ran, the rows they wrote (SQLite's `changes`)
 * and the time spent executing them, per item folded. Also the longest single batch (a batch holds
 * the event loop on SQLite).
 *
 *   ITEMS=40000 PROFILE=/tmp/fold.cpuprofile npm run bench:fold-profile
 *
 * PROFILE writes a CPU profile of the fold alone (ingestion excluded); TALLY=0 skips the per-table
 * counts (they wrap every statement).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { createContainer } from '../../src/container.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { SqliteSyncingDriver } from '../../src/storage/sqlite/sqlite-driver.js';
import { eventLoopCpuMs } from '../support/processes.js';
import { dropPgSchema, PG_URL } from '../support/postgres.js';
import { body } from './run.js';

const ITEMS = Number(process.env.ITEMS ?? 40_000);

/** CPU of every `postgres` process of the machine (other schemas' work included: a rough figure). */
function postgresCpuMs(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10;
}

/**
 * The main thread's own counters (Linux): CPU seconds (utime + stime, clock ticks of 10 ms) and
 * bytes it wrote (wchar: on SQLite the WAL frames its commits append, a measure of pages dirtied
 * that the machine's load does not blur), without the checkpoint thread and libuv's fsyncs.
 */
function mainThread(): { cpuMs: number; written: number } {
  try {
    const io = fs.readFileSync(`/proc/self/task/${process.pid}/io`, 'utf8');
    return { cpuMs: eventLoopCpuMs(), written: Number(/wchar: (\d+)/.exec(io)?.[1] ?? NaN) };
  } catch {
    return { cpuMs: NaN, written: NaN };
  }
}

interface Tally {
  statements: number;
  rows: number;
  ms: number;
}
const tallies = new Map<string, Tally>();
let counting = false;
let batchStart = 0;
let longestBatch = 0;

/** Adds one statement to its table's tally (labelled by its verb and table). */
function tallyStatement(text: string, rows: number, ms: number): void {
  const m = /^\s*(insert into|update|select .*? from|delete from)\s+"?(\w+)"?/is.exec(text);
  const label = m ? `${m[1]!.split(' ')[0]} ${m[2]}` : text.split(' ')[0]!;
  const tally = tallies.get(label) ?? { statements: 0, rows: 0, ms: 0 };
  tally.statements += 1;
  tally.rows += rows;
  tally.ms += ms;
  tallies.set(label, tally);
}

const original = SqliteSyncingDriver.prototype.run;
SqliteSyncingDriver.prototype.run = function (this: SqliteSyncingDriver, statement, parameters: readonly unknown[]) {
  if (!counting) return original.call(this, statement, parameters);
  const text = statement.source;
  if (text === 'begin') batchStart = performance.now();
  const t = performance.now();
  const out = original.call(this, statement, parameters);
  const ms = performance.now() - t;
  if (text === 'commit') longestBatch = Math.max(longestBatch, performance.now() - batchStart);
  tallyStatement(text, Number(out.result.numAffectedRows ?? out.result.rows.length), ms);
  return out;
};

// On PostgreSQL the same tally from the client's side: each statement's round trip (server time
// plus the wire), rows from the result's rowCount.
const originalQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const config = args[0] as string | { text: string };
  const text = typeof config === 'string' ? config : config?.text;
  const out = originalQuery.apply(this, args);
  if (!counting || typeof text !== 'string' || !(out instanceof Promise)) return out;
  const t = performance.now();
  return out.then((result: pg.QueryResult) => {
    tallyStatement(text, Number(result?.rowCount ?? 0), performance.now() - t);
    return result;
  });
} as typeof pg.Client.prototype.query;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fold-profile-'));
// DATABASE=postgres: the same on PostgreSQL (BENCH_PG_URL), in a schema of its own dropped at the end.
const schema = `fold_profile_${process.pid}`;
const onPostgres = process.env.DATABASE === 'postgres';
const handle = await openDatabase(
  onPostgres ? { kind: 'postgres', url: PG_URL, schema } : { kind: 'sqlite', path: path.join(dir, 'p.db') },
);
await migrateToLatest(handle);
const container = createContainer(handle);
// BATCH: fold with another batch size than the service's (an experiment, not a setting).
if (process.env.BATCH) Object.assign(container.analytics.services.analyticsService, { batchSize: Number(process.env.BATCH) });
const app = await buildApp({ bodyLimitBytes: 2 * 1024 * 1024, logLevel: 'silent', logger: false }, container);
await app.ready();
let t = performance.now();
for (let i = 0; i < ITEMS / 10; i += 1) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/cortex/feedback',
    headers: { 'content-type': 'application/json' },
    payload: body(i),
  });
  if (res.statusCode !== 201) throw new Error(res.body);
}
const ingestMs = performance.now() - t;
// As on a running server (autovacuum analyzes a growing table): without statistics PostgreSQL plans
// the fold's claim as a scan (bench:analytics does the same before measuring).
if (onPostgres) await handle.db.executeQuery(CompiledQuery.raw('analyze'));
counting = process.env.TALLY !== '0';
const session = process.env.PROFILE ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const cpu = process.cpuUsage();
const before = mainThread();
const serverBefore = postgresCpuMs();
t = performance.now();
const folded = await container.analytics.services.analyticsService.catchUp();
const foldMs = performance.now() - t;
const foldCpu = process.cpuUsage(cpu);
const after = mainThread();
const serverMs = postgresCpuMs() - serverBefore;
counting = false;
if (session) {
  const { profile } = await session.post('Profiler.stop');
  fs.writeFileSync(process.env.PROFILE!, JSON.stringify(profile));
  session.disconnect();
}
console.log(
  `ingest ${ITEMS} items: ${ingestMs.toFixed(0)} ms (${((ingestMs * 1000) / ITEMS).toFixed(1)} µs/item) · fold ${folded}: ${foldMs.toFixed(0)} ms (${((foldMs * 1000) / ITEMS).toFixed(1)} µs/item, cpu ${((foldCpu.user + foldCpu.system) / ITEMS).toFixed(1)} µs/item, main thread ${(((after.cpuMs - before.cpuMs) * 1000) / ITEMS).toFixed(1)} µs/item and ${((after.written - before.written) / ITEMS).toFixed(0)} bytes written/item${onPostgres ? `, postgres ${((serverMs * 1000) / ITEMS).toFixed(1)} µs/item` : ''}) · longest batch ${longestBatch.toFixed(1)} ms`,
);
if (tallies.size > 0) {
  const all = { statements: 0, rows: 0, ms: 0 };
  console.log('  per item folded: statements · rows written/read · µs executing');
  for (const [label, x] of [...tallies].sort((a, b) => b[1].ms - a[1].ms)) {
    all.statements += x.statements;
    all.rows += label.startsWith('select') ? 0 : x.rows;
    all.ms += x.ms;
    console.log(
      `  ${label.padEnd(40)} ${(x.statements / folded).toFixed(4).padStart(8)} ${(x.rows / folded).toFixed(3).padStart(8)} ${((x.ms * 1000) / folded).toFixed(1).padStart(7)}`,
    );
  }
  console.log(
    `  ${'all (rows written)'.padEnd(40)} ${(all.statements / folded).toFixed(4).padStart(8)} ${(all.rows / folded).toFixed(3).padStart(8)} ${((all.ms * 1000) / folded).toFixed(1).padStart(7)}`,
  );
}
await app.close();
await container.close();
await handle.close();
fs.rmSync(dir, { recursive: true, force: true });
if (onPostgres) await dropPgSchema(schema);
