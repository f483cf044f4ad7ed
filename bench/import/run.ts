/**
 * bench/import: `searchloop import` of an NDJSON file of feedback submissions (one item a line,
 * historical timestamps), into SQLite and PostgreSQL, side by side with the raw database
 * ceiling measured in the same run: the same items, already built, inserted by Kysely in the
 * same transaction sizes, with no parsing, checking or de-duplication.
 *
 *   npm run bench:import          (ITEMS=50000 ROUNDS=3 BATCH=5000 BENCH_PG_URL=postgres://…)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { runImportCommand } from '../../src/cli-import.js';
import { loadConfig } from '../../src/config.js';
import { newId } from '../../src/common/ids.js';
import { toRow } from '../../src/feedback/feedback.kysely-store.js';
import { openDatabase, type DatabaseTarget } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { machineLine } from '../support/processes.js';

const ITEMS = Number(process.env.ITEMS ?? 50_000);
const BATCH = Number(process.env.BATCH ?? 5000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-bench-import-'));
const START = Date.parse('2026-10-01T00:00:00Z');

function line(i: number): string {
  return JSON.stringify({
    sessionId: `s-${i % 5000}`,
    feedback: [
      {
        queryId: `q-${Math.floor(i / 10)}`,
        metadata: {
          userAction: i % 10 === 3 ? 'click' : 'impression',
          resultId: `doc-${i % 997}`,
          timestamp: new Date(START + i * 250).toISOString(),
          customMetadata: { position: (i % 10) + 1 },
        },
      },
    ],
  });
}

async function writeFile(file: string): Promise<void> {
  const out = fs.createWriteStream(file);
  let chunk = '';
  for (let i = 0; i < ITEMS; i++) {
    chunk += `${line(i)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  out.write(chunk);
  await new Promise<void>((r) => out.end(() => r()));
}

/** The ceiling: the same items as rows, inserted in transactions of BATCH, chunks of 400. */
async function ceiling(target: DatabaseTarget): Promise<number> {
  const database = await openDatabase(target, { poolSize: 2 });
  await migrateToLatest(database);
  const started = performance.now();
  for (let b = 0; b < ITEMS; b += BATCH) {
    const submission = newId();
    const rows: ReturnType<typeof toRow>[] = [];
    for (let i = b; i < Math.min(ITEMS, b + BATCH); i++) {
      rows.push(
        toRow({
          id: newId(),
          submissionId: submission,
          seq: i - b,
          sessionId: `s-${i % 5000}`,
          queryId: `q-${Math.floor(i / 10)}`,
          rating: null,
          userAction: i % 10 === 3 ? 'click' : 'impression',
          eventTime: START + i * 250,
          receivedAt: Date.now(),
          resultId: `doc-${i % 997}`,
          queryHash: null,
          engagementType: null,
          searchType: null,
          position: (i % 10) + 1,
          timeToClick: null,
          deviceType: null,
          viewportWidth: null,
          viewportHeight: null,
          scrollDepth: null,
          dwellTime: null,
          category: null,
          language: null,
          extraMetadata: null,
        }),
      );
    }
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 400)
        await trx
          .insertInto('feedback_items')
          .values(rows.slice(i, i + 400))
          .execute();
      await trx
        .insertInto('feedback_submissions')
        .values({ id: submission, session_id: 's', item_count: rows.length, received_at: Date.now() })
        .execute();
    });
  }
  const seconds = (performance.now() - started) / 1000;
  await database.close();
  return ITEMS / seconds;
}

async function importRun(env: NodeJS.ProcessEnv, file: string): Promise<{ rate: number; again: number; report: string }> {
  const io = { out: (t: string) => void (report += t), err: () => undefined, tty: false };
  let report = '';
  let started = performance.now();
  await runImportCommand([file, '--batch', String(BATCH)], () => loadConfig(env), io);
  const rate = ITEMS / ((performance.now() - started) / 1000);
  const first = report;
  report = '';
  started = performance.now();
  await runImportCommand([file, '--batch', String(BATCH)], () => loadConfig(env), io);
  const again = ITEMS / ((performance.now() - started) / 1000);
  return { rate, again, report: `${first.trim()} | re-run: ${report.trim()}` };
}

let schemas = 0;
async function pgSchema(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_URL });
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  const schema = `bench_import_${process.pid}_${(schemas += 1)}`;
  await client.query(`drop schema if exists ${schema} cascade; create schema ${schema}`);
  await client.end();
  return schema;
}

const file = path.join(dir, 'feedback.ndjson');
await writeFile(file);
const mb = (fs.statSync(file).size / 1e6).toFixed(1);
const results: { db: string; ceiling: number; rate: number; again: number; report: string }[] = [];

// The machine is shared: the ceiling and the import alternate, ROUNDS times each on fresh
// databases, and the medians are compared (a burst of load then hits both sides alike).
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function rounds(
  db: string,
  target: (round: number, role: 'ceiling' | 'import') => Promise<{ target: DatabaseTarget; env: NodeJS.ProcessEnv }>,
) {
  const ceilings: number[] = [];
  const rates: number[] = [];
  const agains: number[] = [];
  let report = '';
  for (let round = 0; round < ROUNDS; round++) {
    ceilings.push(await ceiling((await target(round, 'ceiling')).target));
    const run = await importRun((await target(round, 'import')).env, file);
    rates.push(run.rate);
    agains.push(run.again);
    report = run.report;
  }
  results.push({ db, ceiling: median(ceilings), rate: median(rates), again: median(agains), report });
}

await rounds('SQLite', async (round, role) => {
  const p = path.join(dir, `${role}-${round}.db`);
  return { target: { kind: 'sqlite', path: p }, env: { DATABASE_URL: `sqlite:${p}` } };
});

const created: string[] = [];
if (await pgSchema().then((s) => s && created.push(s))) {
  await rounds('PostgreSQL', async () => {
    const schema = (await pgSchema())!;
    created.push(schema);
    return { target: { kind: 'postgres', url: PG_URL, schema }, env: { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema } };
  });
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  for (const schema of created) await client.query(`drop schema ${schema} cascade`);
  await client.end();
} else process.stdout.write(`PostgreSQL at ${PG_URL} did not answer: SQLite only\n`);

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const lines = [
  `bench:import — ${ITEMS.toLocaleString('en-US')} items (${mb} MB NDJSON), transactions of ${BATCH}, medians of ${ROUNDS} alternating rounds — ${machineLine()}`,
  '',
  '| database | raw insert ceiling (items/s) | searchloop import (items/s) | % of ceiling | re-run, all duplicates (items/s) |',
  '|---|---:|---:|---:|---:|',
  ...results.map(
    (r) => `| ${r.db} | ${fmt(r.ceiling)} | ${fmt(r.rate)} | ${((100 * r.rate) / r.ceiling).toFixed(0)} % | ${fmt(r.again)} |`,
  ),
  '',
  ...results.map((r) => `${r.db}: ${r.report}`),
];
process.stdout.write(`${lines.join('\n')}\n`);
fs.rmSync(dir, { recursive: true, force: true });
