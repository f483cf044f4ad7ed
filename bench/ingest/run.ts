/**
 * bench/ingest: side by side in one run, (a) the framework ceiling (parse + validate, no write),
 * (b) the database ceiling (the same rows through the same store and driver, one transaction
 * per submission, in a tight loop), (c) Searchloop over HTTP with 1-item and 50-item
 * submissions on SQLite and PostgreSQL, every item committed before its 201.
 *
 * Then, for each Searchloop case, latency open-loop: a fixed offered rate of half the maximum
 * it just measured (evenly spaced, bench/support/paced.ts), i.e. 50 % utilisation, on a fresh instance and
 * database (so the saturation run's analytics backlog is not folded during it).
 *
 *   npm run bench:ingest        (DURATION=30 CONNECTIONS=64 BENCH_PG_URL=postgres://…)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseTarget } from '../../src/storage/database.js';
import { newId } from '../../src/common/ids.js';
import { KyselyFeedbackStore } from '../../src/feedback/feedback.kysely-store.js';
import type { FeedbackRecord } from '../../src/feedback/feedback.store.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { loadAverage, runLoad, type LoadResult } from '../support/load.js';
import { machineLine, startProcess } from '../support/processes.js';
import { createPgSchema, dropPgSchema, PG_URL } from '../support/postgres.js';
import { feedbackBody } from './bodies.js';

const DURATION = Number(process.env.DURATION ?? 30);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const ROOT = path.resolve(import.meta.dirname, '../..');
const URL_PATH = '/api/cortex/feedback';

interface Row {
  name: string;
  itemsPerRequest: number;
  rps: number;
  itemsPerSecond: number;
  p50: number | null;
  p99: number | null;
  errors: string;
}
const rows: Row[] = [];
interface OpenRow {
  name: string;
  itemsPerRequest: number;
  offered: number;
  achieved: number;
  p50: number;
  p99: number;
  max: number;
  errors: string;
}
const openRows: OpenRow[] = [];
const loadAverages: string[] = [loadAverage()];
const fromLoad = (name: string, items: number, r: LoadResult): Row => ({
  name,
  itemsPerRequest: items,
  rps: r.rps,
  itemsPerSecond: r.rps * items,
  p50: r.p50,
  p99: r.p99,
  errors: `${r.errors}/${r.non2xx}`,
});

async function http(name: string, url: string, items: number) {
  const body = feedbackBody(items);
  await runLoad({ url: `${url}${URL_PATH}`, connections: CONNECTIONS, durationSeconds: 2, body });
  const r = await runLoad({ url: `${url}${URL_PATH}`, connections: CONNECTIONS, durationSeconds: DURATION, body });
  rows.push(fromLoad(name, items, r));
  process.stderr.write(`${name}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms\n`);
}

/**
 * Open loop at half the maximum measured for this case: latency at 50 % utilisation. Run on a
 * fresh instance and database, so it does not also fold the saturation run's analytics backlog.
 */
async function openLoop(name: string, url: string, items: number) {
  const max = rows.find((r) => r.name === name && r.itemsPerRequest === items)!;
  const body = feedbackBody(items);
  const rate = max.rps / 2;
  await runLoad({ url: `${url}${URL_PATH}`, connections: CONNECTIONS, durationSeconds: 2, body, overallRate: rate }); // warm-up
  const o = await runLoad({ url: `${url}${URL_PATH}`, connections: CONNECTIONS, durationSeconds: DURATION, body, overallRate: rate });
  openRows.push({
    name,
    itemsPerRequest: items,
    offered: rate,
    achieved: o.rps,
    p50: o.p50,
    p99: o.p99,
    max: o.max,
    errors: `${o.errors}/${o.non2xx}`,
  });
  loadAverages.push(loadAverage());
  process.stderr.write(`${name} open loop at ${rate.toFixed(0)} req/s: p50 ${o.p50} ms, p99 ${o.p99} ms, max ${o.max} ms\n`);
}

function record(submissionId: string, seq: number, now: number): FeedbackRecord {
  return {
    id: newId(),
    submissionId,
    seq,
    sessionId: 'bench',
    queryId: 'query',
    rating: seq % 5 === 4 ? 4 : null,
    userAction: seq % 5 === 1 ? 'click' : 'impression',
    eventTime: now,
    receivedAt: now,
    resultId: `doc-${seq}`,
    queryHash: 'running shoes',
    engagementType: null,
    searchType: 'keyword',
    position: seq + 1,
    timeToClick: null,
    deviceType: 'mobile',
    viewportWidth: 390,
    viewportHeight: 844,
    scrollDepth: null,
    dwellTime: null,
    category: null,
    language: 'en',
    extraMetadata: null,
  };
}

/** (b): one submission per transaction, back to back, through the production store. */
async function databaseCeiling(name: string, target: DatabaseTarget, items: number) {
  const handle = await openDatabase(target);
  await migrateToLatest(handle);
  const store = new KyselyFeedbackStore(handle.db);
  const latencies: number[] = [];
  const end = performance.now() + DURATION * 1000;
  while (performance.now() < end) {
    const t = performance.now();
    const id = newId();
    const now = Date.now();
    await store.insertSubmissions([
      {
        submission: { id, sessionId: 'bench', itemCount: items, receivedAt: now },
        items: Array.from({ length: items }, (_, i) => record(id, i, now)),
      },
    ]);
    latencies.push(performance.now() - t);
  }
  await handle.close();
  latencies.sort((a, b) => a - b);
  const rps = latencies.length / DURATION;
  rows.push({
    name,
    itemsPerRequest: items,
    rps,
    itemsPerSecond: rps * items,
    p50: Number(latencies[Math.floor(latencies.length * 0.5)]!.toFixed(2)),
    p99: Number(latencies[Math.floor(latencies.length * 0.99)]!.toFixed(2)),
    errors: '0/0',
  });
  process.stderr.write(`${name}: ${rps.toFixed(0)} tx/s\n`);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
const ceiling = await startProcess(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'ceiling-server.ts')], {}, 3400);
await http('(a) framework ceiling: parse + validate, no write', ceiling.url, 1);
await http('(a) framework ceiling: parse + validate, no write', ceiling.url, 50);
await ceiling.stop();

await databaseCeiling('(b) database ceiling, SQLite', { kind: 'sqlite', path: path.join(tmp, 'ceiling.db') }, 1);
await databaseCeiling('(b) database ceiling, SQLite', { kind: 'sqlite', path: path.join(tmp, 'ceiling.db') }, 50);
const serve = (env: Record<string, string>, port: number) =>
  startProcess(
    process.execPath,
    [path.join(ROOT, 'dist/cli/cli.js'), 'serve'],
    { LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', ...env },
    port,
  );
const sqlite = await serve({ DATABASE_URL: `sqlite://${tmp}/searchloop.db` }, 3401);
await http('(c) Searchloop, SQLite', sqlite.url, 1);
await http('(c) Searchloop, SQLite', sqlite.url, 50);
await sqlite.stop();
const sqliteOpen = await serve({ DATABASE_URL: `sqlite://${tmp}/searchloop-open.db` }, 3403);
await openLoop('(c) Searchloop, SQLite', sqliteOpen.url, 1);
await openLoop('(c) Searchloop, SQLite', sqliteOpen.url, 50);
await sqliteOpen.stop();

const schemas = [`bench_ingest_c_${Date.now()}`, `bench_ingest_s_${Date.now()}`, `bench_ingest_o_${Date.now()}`];
try {
  for (const s of schemas) await createPgSchema(s);
  await databaseCeiling('(b) database ceiling, PostgreSQL', { kind: 'postgres', url: PG_URL, schema: schemas[0]! }, 1);
  await databaseCeiling('(b) database ceiling, PostgreSQL', { kind: 'postgres', url: PG_URL, schema: schemas[0]! }, 50);
  const postgres = await serve({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: schemas[1]! }, 3402);
  await http('(c) Searchloop, PostgreSQL', postgres.url, 1);
  await http('(c) Searchloop, PostgreSQL', postgres.url, 50);
  await postgres.stop();
  const postgresOpen = await serve({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: schemas[2]! }, 3404);
  await openLoop('(c) Searchloop, PostgreSQL', postgresOpen.url, 1);
  await openLoop('(c) Searchloop, PostgreSQL', postgresOpen.url, 50);
  await postgresOpen.stop();
} finally {
  for (const s of schemas) await dropPgSchema(s).catch(() => undefined);
  fs.rmSync(tmp, { recursive: true, force: true });
}

const ref = (prefix: string, items: number) => rows.find((r) => r.name.startsWith(prefix) && r.itemsPerRequest === items);
console.log(`\nbench/ingest — ${new Date().toISOString().slice(0, 10)} — ${machineLine()}`);
console.log(`${CONNECTIONS} connections, ${DURATION} s per HTTP case; (b) is one submission per transaction in a loop\n`);
console.log('| case | items/request | requests/s | items/s | p50 ms | p99 ms | vs (a) req/s | vs (b) items/s | errors/non-2xx |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const a = ref('(a)', r.itemsPerRequest);
  const db = r.name.includes('SQLite') ? 'SQLite' : r.name.includes('PostgreSQL') ? 'PostgreSQL' : '';
  const b = rows.find((x) => x.name.startsWith('(b)') && x.name.includes(db) && db && x.itemsPerRequest === r.itemsPerRequest);
  const vsA = r.name.startsWith('(c)') && a ? `${((100 * r.rps) / a.rps).toFixed(0)} %` : '';
  const vsB = r.name.startsWith('(c)') && b ? `${((100 * r.itemsPerSecond) / b.itemsPerSecond).toFixed(0)} %` : '';
  console.log(
    `| ${r.name} | ${r.itemsPerRequest} | ${r.rps.toFixed(0)} | ${r.itemsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${vsA} | ${vsB} | ${r.errors} |`,
  );
}

console.log(
  `\nOpen loop: a fixed offered rate of half the maximum measured above (50 % utilisation), ${DURATION} s each, on a fresh instance and database`,
);
console.log('| case | items/request | offered req/s | achieved req/s | p50 ms | p99 ms | max ms | errors/non-2xx |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const o of openRows) {
  console.log(
    `| ${o.name} | ${o.itemsPerRequest} | ${o.offered.toFixed(0)} | ${o.achieved.toFixed(0)} | ${o.p50} | ${o.p99} | ${o.max} | ${o.errors} |`,
  );
}
console.log(`\nload average (1/5/15 min) at the start and after each open-loop case: ${loadAverages.join(' · ')}`);
