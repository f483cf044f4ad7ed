/**
 * bench/import: `searchloop import` of an NDJSON file of feedback submissions (one item a line,
 * historical timestamps, sessions round-robin), into SQLite and PostgreSQL, side by side with
 * the raw database ceiling measured in the same run.
 *
 * The ceiling writes the same rows the import writes (the items, and one feedback_submissions
 * row per session and transaction), into the same migrated schema (the same indexes), in the
 * same transaction sizes, with the plain statements of src/feedback/import/store/bulk-statements.ts
 * (SQLite: prepared single-row inserts; PostgreSQL: one INSERT … SELECT FROM unnest per table
 * and transaction). Only the database's time is counted: the rows are built before each
 * transaction's clock starts. It writes no idempotency keys, parses and checks nothing.
 * The import runs as the command does, compiled (dist/), in its own process (its peak RSS is reported), against
 * a database already migrated like the ceiling's; its time is the command's, parsing included.
 *
 *   npm run bench:import -- [--items 200000] [--rounds 3] [--batch 5000] [--db sqlite,postgres]
 *                           [--no-rerun] [--keep-file]        (BENCH_PG_URL=postgres://…)
 *   npm run bench:import -- --items 10000000 --rounds 1 --no-rerun     the issue's full size
 *   npm run bench:import -- --gb 1 --db sqlite --rounds 1 --no-rerun --no-ceiling
 *                                   a ≥ 1 GB file, the import's RSS over time: constant memory
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CompiledQuery } from 'kysely';
import { newId } from '../../src/common/ids.js';
import type { FeedbackRecord } from '../../src/feedback/feedback.store.js';
import { PG_INSERT_ITEMS, SqliteBulkStatements, itemArrays } from '../../src/feedback/import/store/bulk-statements.js';
import { submissionsOf } from '../../src/feedback/import/import.store.js';
import { openDatabase, type DatabaseTarget } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { machineLine } from '../support/processes.js';
import { createPgSchema, dropPgSchema, PG_URL } from '../support/postgres.js';
import { median } from '../support/stats.js';

const { values: opts } = parseArgs({
  options: {
    items: { type: 'string', default: process.env.ITEMS ?? '200000' },
    gb: { type: 'string' },
    rounds: { type: 'string', default: process.env.ROUNDS ?? '3' },
    batch: { type: 'string', default: process.env.BATCH ?? '5000' },
    db: { type: 'string', default: 'sqlite,postgres' },
    'no-rerun': { type: 'boolean', default: false },
    'no-ceiling': { type: 'boolean', default: false },
  },
});
const BATCH = Number(opts.batch);
const ROUNDS = Number(opts.rounds);
const DBS = opts.db.split(',');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-bench-import-'));
const START = Date.parse('2026-10-01T00:00:00Z');
const SESSIONS = 5000;

interface Item {
  sessionId: string;
  queryId: string;
  userAction: string;
  resultId: string;
  eventTime: number;
  position: number;
}
function item(i: number): Item {
  return {
    sessionId: `s-${i % SESSIONS}`,
    queryId: `q-${Math.floor(i / 10)}`,
    userAction: i % 10 === 3 ? 'click' : 'impression',
    resultId: `doc-${i % 997}`,
    eventTime: START + i * 250,
    position: (i % 10) + 1,
  };
}
function line(i: number): string {
  const it = item(i);
  return JSON.stringify({
    sessionId: it.sessionId,
    feedback: [
      {
        queryId: it.queryId,
        metadata: {
          userAction: it.userAction,
          resultId: it.resultId,
          timestamp: new Date(it.eventTime).toISOString(),
          customMetadata: { position: it.position },
        },
      },
    ],
  });
}

/** Writes lines until `items` lines or `bytes` bytes; answers the number of lines. */
async function writeFile(file: string, items: number, bytes: number): Promise<number> {
  const out = fs.createWriteStream(file);
  let chunk = '';
  let written = 0;
  let i = 0;
  for (; i < items && written < bytes; i++) {
    const text = `${line(i)}\n`;
    chunk += text;
    written += text.length;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  out.write(chunk);
  await new Promise<void>((r) => out.end(() => r()));
  return i;
}

/** One transaction's rows as the import builds them: one submission per session in the batch. */
function batchRecords(from: number, to: number, receivedAt: number): FeedbackRecord[] {
  const submissions = new Map<string, { id: string; seq: number }>();
  const records: FeedbackRecord[] = [];
  for (let i = from; i < to; i++) {
    const it = item(i);
    let s = submissions.get(it.sessionId);
    if (!s) submissions.set(it.sessionId, (s = { id: newId(), seq: 0 }));
    records.push({
      id: newId(),
      submissionId: s.id,
      seq: s.seq++,
      sessionId: it.sessionId,
      queryId: it.queryId,
      rating: null,
      userAction: it.userAction,
      eventTime: it.eventTime,
      receivedAt,
      resultId: it.resultId,
      queryHash: null,
      engagementType: null,
      searchType: null,
      position: it.position,
      timeToClick: null,
      deviceType: null,
      viewportWidth: null,
      viewportHeight: null,
      scrollDepth: null,
      dwellTime: null,
      category: null,
      language: null,
      extraMetadata: null,
    });
  }
  return records;
}

async function migrated(target: DatabaseTarget): Promise<void> {
  const database = await openDatabase(target, { poolSize: 1 });
  await migrateToLatest(database);
  await database.close();
}

/** The ceiling: the database's time only, summed over the transactions. */
async function ceiling(target: DatabaseTarget, items: number): Promise<number> {
  const database = await openDatabase(target, { poolSize: 1 });
  await migrateToLatest(database);
  let statements: SqliteBulkStatements | undefined;
  let seconds = 0;
  for (let b = 0; b < items; b += BATCH) {
    const now = Date.now();
    const records = batchRecords(b, Math.min(items, b + BATCH), now);
    if (database.sqliteTransaction) {
      const submissions = submissionsOf(records, now);
      const started = performance.now();
      // As the import: one raw transaction, durable once the driver has synced the WAL.
      await database.sqliteTransaction((connection) => {
        statements ??= new SqliteBulkStatements(connection);
        statements.items(records);
        statements.submissions(submissions);
      });
      seconds += (performance.now() - started) / 1000;
    } else {
      const parameters = [...itemArrays(records), now];
      const started = performance.now();
      await database.db.executeQuery(CompiledQuery.raw(PG_INSERT_ITEMS, parameters));
      seconds += (performance.now() - started) / 1000;
    }
  }
  await database.close();
  return items / seconds;
}

interface ChildResult {
  code: number;
  seconds: number;
  maxRssKb: number;
  sampledPeakRssKb: number;
  rssTimelineKb: number[];
  report: string;
}
function importChild(env: NodeJS.ProcessEnv, file: string): ChildResult {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'import-child.ts'), file, '--batch', String(BATCH)],
    {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as ChildResult;
}

let schemas = 0;
/** A fresh schema of this run, or undefined when PostgreSQL does not answer. */
async function pgSchema(): Promise<string | undefined> {
  const schema = `bench_import_${process.pid}_${(schemas += 1)}`;
  try {
    await dropPgSchema(schema);
  } catch {
    return undefined;
  }
  await createPgSchema(schema);
  return schema;
}

const loads: string[] = [fs.readFileSync('/proc/loadavg', 'utf8').trim()];
const benchStarted = performance.now();
const file = path.join(dir, 'feedback.ndjson');
const ITEMS = await writeFile(file, opts.gb ? Infinity : Number(opts.items), opts.gb ? Number(opts.gb) * 2 ** 30 : Infinity);
const bytes = fs.statSync(file).size;
interface Result {
  db: string;
  ceiling: number;
  rate: number;
  again: number | undefined;
  importSeconds: number;
  maxRssKb: number;
  sampledPeakRssKb: number;
  rssTimelineKb: number[];
  report: string;
}
const results: Result[] = [];

// The machine is shared: the ceiling and the import alternate, ROUNDS times each on fresh
// databases, and the medians are compared (a burst of load then hits both sides alike).
async function rounds(db: string, fresh: () => Promise<{ target: DatabaseTarget; env: NodeJS.ProcessEnv }>) {
  const ceilings: number[] = [];
  const runs: ChildResult[] = [];
  const agains: number[] = [];
  let report = '';
  for (let round = 0; round < ROUNDS; round++) {
    const stamp = () => `${new Date().toISOString()} load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join('/')}`;
    if (!opts['no-ceiling']) {
      ceilings.push(await ceiling((await fresh()).target, ITEMS));
      process.stderr.write(`${db} round ${round + 1}: ceiling ${Math.round(ceilings.at(-1)!)} items/s (${stamp()})\n`);
    }
    loads.push(fs.readFileSync('/proc/loadavg', 'utf8').trim());
    const { target, env } = await fresh();
    await migrated(target);
    const run = importChild(env, file);
    runs.push(run);
    process.stderr.write(
      `${db} round ${round + 1}: import ${Math.round(ITEMS / run.seconds)} items/s in ${run.seconds.toFixed(0)} s (${stamp()})\n`,
    );
    report = run.report;
    if (!opts['no-rerun']) {
      const again = importChild(env, file);
      agains.push(ITEMS / again.seconds);
      report += ` | re-run: ${again.report}`;
    }
    loads.push(fs.readFileSync('/proc/loadavg', 'utf8').trim());
  }
  results.push({
    db,
    ceiling: ceilings.length ? median(ceilings) : NaN,
    rate: median(runs.map((r) => ITEMS / r.seconds)),
    again: agains.length ? median(agains) : undefined,
    importSeconds: median(runs.map((r) => r.seconds)),
    maxRssKb: Math.max(...runs.map((r) => r.maxRssKb)),
    sampledPeakRssKb: Math.max(...runs.map((r) => r.sampledPeakRssKb)),
    rssTimelineKb: runs.at(-1)!.rssTimelineKb,
    report,
  });
}

if (DBS.includes('sqlite')) {
  let n = 0;
  await rounds('SQLite', async () => {
    const p = path.join(dir, `bench-${(n += 1)}.db`);
    return { target: { kind: 'sqlite', path: p }, env: { DATABASE_URL: `sqlite:${p}` } };
  });
  for (const f of fs.readdirSync(dir)) if (f.startsWith('bench-')) fs.rmSync(path.join(dir, f), { force: true });
}

const created: string[] = [];
if (DBS.includes('postgres')) {
  if (await pgSchema().then((s) => s && created.push(s))) {
    await rounds('PostgreSQL', async () => {
      const schema = (await pgSchema())!;
      created.push(schema);
      return { target: { kind: 'postgres', url: PG_URL, schema }, env: { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema } };
    });
    for (const schema of created) await dropPgSchema(schema);
  } else process.stdout.write(`PostgreSQL at ${PG_URL} did not answer: SQLite only\n`);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mib = (kb: number) => `${Math.round(kb / 1024)} MiB`;
const lines = [
  `bench:import — ${ITEMS.toLocaleString('en-US')} items (${(bytes / 2 ** 20).toFixed(1)} MiB NDJSON), transactions of ${BATCH}, ` +
    `medians of ${ROUNDS} alternating round(s) — ${new Date().toISOString()} — ${machineLine()}`,
  `load average (1/5/15 min) sampled between phases: ${loads.map((l) => l.split(' ').slice(0, 3).join('/')).join(', ')}`,
  `whole run ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`,
  '',
  '| database | raw insert ceiling (items/s) | searchloop import (items/s) | % of ceiling | import time | re-run, all duplicates (items/s) | import peak RSS |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.db} | ${Number.isNaN(r.ceiling) ? '–' : fmt(r.ceiling)} | ${fmt(r.rate)} | ${Number.isNaN(r.ceiling) ? '–' : `${((100 * r.rate) / r.ceiling).toFixed(0)} %`} | ${r.importSeconds.toFixed(1)} s | ` +
      `${r.again === undefined ? '–' : fmt(r.again)} | ${mib(r.maxRssKb)} |`,
  ),
  '',
  ...results.map(
    (r) =>
      `${r.db}: ${r.report} (RSS sampled every 100 ms: peak ${mib(r.sampledPeakRssKb)}; ` +
      `at 10/25/50/75/100 % of the import's time: ${r.rssTimelineKb.map(mib).join(', ')})`,
  ),
];
process.stdout.write(`${lines.join('\n')}\n`);
fs.rmSync(dir, { recursive: true, force: true });
