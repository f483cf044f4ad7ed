/**
 * bench/analytics: the search analytics pages at volume, and what keeping the aggregates costs
 * ingestion, on SQLite and PostgreSQL.
 *
 *   npm run bench:analytics     (ITEMS=10000000 DAYS=30 QUERIES=50000 DATABASES=sqlite,postgres
 *                                INGEST_SECONDS=20 BENCH_PG_URL=postgres://…)
 *
 * Reads: hourly aggregates equivalent to ITEMS feedback items (aggregates.ts says how they are
 * generated) are written straight into the tables; then the queries page (30 days, minSearches
 * 10, 50 rows) and the overview (30 days, daily series) are timed through the service, median of 5
 * after a warm-up. Ingestion: POST /api/cortex/feedback (10 items a request, 8 in flight) for
 * INGEST_SECONDS without analytics (its backlog index dropped, as before issue 12), then as long
 * with the analytics task folding the backlog every 2 s as the scheduler runs it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { COUNTERS, HOUR_MS } from '../../src/analytics/fold.js';
import { buildApp } from '../../src/app.js';
import type { Clock } from '../../src/common/clock.js';
import { createContainer } from '../../src/container.js';
import { openDatabase, type DatabaseHandle, type DatabaseTarget } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { machineLine } from '../support/processes.js';
import { generateHours, ITEMS_PER_SEARCH } from './aggregates.js';

const ITEMS = Number(process.env.ITEMS ?? 10_000_000);
const DAYS = Number(process.env.DAYS ?? 30);
const QUERIES = Number(process.env.QUERIES ?? 50_000);
const DATABASES = (process.env.DATABASES ?? 'sqlite,postgres').split(',');
const INGEST_SECONDS = Number(process.env.INGEST_SECONDS ?? 20);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const START = Date.parse('2026-10-01T00:00:00Z');
const END = START + DAYS * 24 * HOUR_MS;

interface Opened {
  handle: DatabaseHandle;
  target: DatabaseTarget;
  drop(): Promise<void>;
}

async function open(kind: string): Promise<Opened> {
  const suffix = randomBytes(4).toString('hex');
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-analytics-'));
    const target: DatabaseTarget = { kind: 'sqlite', path: path.join(dir, 'bench.db') };
    const handle = await openDatabase(target);
    await migrateToLatest(handle);
    return { handle, target, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_analytics_${suffix}`;
  const target: DatabaseTarget = { kind: 'postgres', url: PG_URL, schema };
  const handle = await openDatabase(target, { poolSize: 10, statementTimeoutMs: 600_000 });
  await migrateToLatest(handle);
  return {
    handle,
    target,
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    },
  };
}

const COLUMNS = ['dimension', 'dim_value', 'hour', ...COUNTERS];

/** Writes the generated aggregates: one prepared statement in a transaction (SQLite), unnest() of arrays (PostgreSQL). */
async function load(o: Opened): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  let rows = 0;
  const hours = generateHours({ items: ITEMS, days: DAYS, queries: QUERIES, start: START, seed: 12 });
  if (o.target.kind === 'sqlite') {
    const db = new BetterSqlite3(o.target.path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    const place = (n: number) => Array.from({ length: n }, () => '?').join(', ');
    const total = db.prepare(`insert into analytics_total_hours (${COLUMNS.join(', ')}) values (${place(COLUMNS.length)})`);
    const query = db.prepare(`insert into analytics_query_hours (${COLUMNS.join(', ')}, query_hash) values (${place(COLUMNS.length + 1)})`);
    const write = db.transaction((hour: number, r: ReturnType<typeof hours.next>['value']) => {
      if (!r) return;
      for (const t of r.rows.total) total.run(t.dimension, t.value, hour, ...COUNTERS.map((c) => t.counters[c]));
      for (const q of r.rows.query) query.run(q.dimension, q.value, hour, ...COUNTERS.map((c) => q.counters[c]), q.queryHash);
    });
    for (const h of hours) {
      write(h.hour, h);
      rows += h.rows.total.length + h.rows.query.length;
    }
    db.exec('analyze');
    db.close();
  } else {
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${o.target.schema}` });
    await client.connect();
    const types = COLUMNS.map((c) =>
      c === 'dimension' || c === 'dim_value' ? 'text[]' : c === 'first_click_rr_sum' ? 'float8[]' : 'int8[]',
    );
    const unnest = (cols: string[], t: string[]) => `select * from unnest(${cols.map((_, i) => `$${i + 1}::${t[i]}`).join(', ')})`;
    for (const h of hours) {
      const t = h.rows.total;
      await client.query(
        `insert into analytics_total_hours (${COLUMNS.join(', ')}) ${unnest(COLUMNS, types)}`,
        COLUMNS.map((c) =>
          t.map((r) =>
            c === 'dimension'
              ? r.dimension
              : c === 'dim_value'
                ? r.value
                : c === 'hour'
                  ? h.hour
                  : r.counters[c as (typeof COUNTERS)[number]],
          ),
        ),
      );
      const q = h.rows.query;
      await client.query(
        `insert into analytics_query_hours (${COLUMNS.join(', ')}, query_hash) ${unnest([...COLUMNS, 'query_hash'], [...types, 'text[]'])}`,
        [
          ...COLUMNS.map((c) =>
            q.map((r) =>
              c === 'dimension'
                ? r.dimension
                : c === 'dim_value'
                  ? r.value
                  : c === 'hour'
                    ? h.hour
                    : r.counters[c as (typeof COUNTERS)[number]],
            ),
          ),
          q.map((r) => r.queryHash),
        ],
      );
      rows += t.length + q.length;
    }
    // Steady state: autovacuum has set the visibility map (index-only scans) and statistics.
    await client.query('vacuum analyze');
    await client.end();
  }
  return { rows, seconds: (performance.now() - started) / 1000 };
}

async function median(run: () => Promise<unknown>, times = 5): Promise<number> {
  await run();
  const ms: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  return ms.sort((a, b) => a - b)[Math.floor(times / 2)]!;
}

async function reads(kind: string): Promise<string[]> {
  const o = await open(kind);
  try {
    const { rows, seconds } = await load(o);
    const clock: Clock = { now: () => END };
    const container = createContainer(o.handle, clock);
    const service = container.analytics.services.analyticsService;
    const window = { from: new Date(START).toISOString(), to: new Date(END).toISOString() };
    const queries = await median(() => service.queries({ ...window, sort: 'searches', minSearches: 10, limit: 50 }));
    const worst = await median(() => service.queries({ ...window, sort: 'abandonment', minSearches: 10, limit: 50 }));
    const change = await median(() => service.queries({ ...window, sort: 'change', minSearches: 10, limit: 50 }));
    const overview = await median(() => service.overview({ ...window, interval: 'day' }));
    const week = await median(() =>
      service.queries({ from: new Date(END - 7 * 24 * HOUR_MS).toISOString(), to: window.to, minSearches: 10, limit: 50 }),
    );
    const page = await service.queries({ ...window, minSearches: 10, limit: 50 });
    await container.close();
    return [
      `| ${kind} | ${rows.toLocaleString('en')} rows loaded in ${seconds.toFixed(0)} s | queries 30 d by searches ${queries.toFixed(0)} ms · by abandonment ${worst.toFixed(0)} ms · by change ${change.toFixed(0)} ms · 7 d ${week.toFixed(0)} ms | overview 30 d ${overview.toFixed(0)} ms | top query ${page.items[0]?.queryHash} with ${page.items[0]?.searches} searches |`,
    ];
  } finally {
    await o.handle.close();
    await o.drop();
  }
}

function body(i: number): string {
  const sessionId = `bench-${i % 5000}`;
  const queryId = `bench-q-${i}`;
  const at = new Date(Date.now() - (i % 7200) * 1000).toISOString();
  const feedback = Array.from({ length: 10 }, (_, p) => ({
    queryId,
    metadata: {
      userAction: p === 9 ? 'click' : 'impression',
      timestamp: at,
      resultId: `doc-${(i + p) % 500}`,
      queryHash: `q-${i % 3000}`,
      customMetadata: {
        position: p === 9 ? 1 + (i % 5) : p + 1,
        deviceType: i % 2 ? 'mobile' : 'desktop',
        language: 'en',
        resultCount: 20,
      },
    },
  }));
  return JSON.stringify({ sessionId, feedback });
}

async function ingest(kind: string, withAnalytics: boolean): Promise<{ itemsPerSecond: number; backlog: number }> {
  const o = await open(kind);
  const container = createContainer(o.handle);
  const app = await buildApp({ bodyLimitBytes: 2 * 1024 * 1024, logLevel: 'silent', logger: false }, container);
  await app.ready();
  try {
    if (!withAnalytics) await sql`drop index feedback_items_analytics_backlog_idx`.execute(o.handle.db);
    const until = performance.now() + INGEST_SECONDS * 1000;
    let next = 0;
    let items = 0;
    const worker = async () => {
      while (performance.now() < until) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/cortex/feedback',
          headers: { 'content-type': 'application/json' },
          payload: body(next++),
        });
        if (res.statusCode !== 201) throw new Error(`ingest answered ${res.statusCode}: ${res.body}`);
        items += 10;
      }
    };
    let folding = Promise.resolve();
    const timer = withAnalytics
      ? setInterval(() => {
          folding = folding.then(() => container.analytics.services.analyticsService.catchUp().then(() => undefined));
        }, 2000)
      : undefined;
    const started = performance.now();
    await Promise.all(Array.from({ length: 8 }, worker));
    const seconds = (performance.now() - started) / 1000;
    if (timer) clearInterval(timer);
    await folding;
    const left = await o.handle.db
      .selectFrom('feedback_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('analytics_done', '=', 0)
      .executeTakeFirstOrThrow();
    return { itemsPerSecond: items / seconds, backlog: withAnalytics ? Number(left.n) : NaN };
  } finally {
    await app.close();
    await container.close();
    await o.handle.close();
    await o.drop();
  }
}

async function main() {
  console.log(
    `bench:analytics — ${ITEMS.toLocaleString('en')} items ≈ ${Math.round(ITEMS / ITEMS_PER_SEARCH).toLocaleString('en')} searches over ${DAYS} days, ${QUERIES.toLocaleString('en')} queries`,
  );
  console.log(machineLine());
  const lines: string[] = [];
  for (const kind of DATABASES) {
    if (process.env.SKIP_READS !== '1') lines.push(...(await reads(kind)));
    if (process.env.SKIP_INGEST !== '1') {
      const without = await ingest(kind, false);
      const withAgg = await ingest(kind, true);
      const cost = 1 - withAgg.itemsPerSecond / without.itemsPerSecond;
      lines.push(
        `| ${kind} | ingestion ${INGEST_SECONDS} s, 10 items/request, 8 in flight | without analytics ${without.itemsPerSecond.toFixed(0)} items/s | with analytics folding every 2 s ${withAgg.itemsPerSecond.toFixed(0)} items/s (backlog left ${withAgg.backlog}) | cost ${(cost * 100).toFixed(1)} % |`,
      );
    }
  }
  console.log(lines.join('\n'));
}

await main();
