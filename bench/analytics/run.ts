/**
 * bench/analytics: the search analytics pages at volume, and what keeping the aggregates costs
 * ingestion, on SQLite and PostgreSQL.
 *
 *   npm run bench:analytics     (ITEMS=10000000 DAYS=30 QUERIES=50000 DATABASES=sqlite,postgres
 *                                INGEST_SECONDS=8 ROUNDS=4 IN_FLIGHT=8,64 BENCH_PG_URL=postgres://…)
 *
 * Reads: hourly aggregates equivalent to ITEMS feedback items (aggregates.ts says how they are
 * generated) are written straight into the tables; then the queries page (30 days, minSearches
 * 10, 50 rows) and the overview (30 days, daily series) are timed through the service, median of 5
 * after a warm-up. Ingestion: POST /api/cortex/feedback (10 items a request, IN_FLIGHT requests
 * at once: 8, a closed loop bound by each request's latency, and 64, enough to keep the event loop
 * busy) for INGEST_SECONDS without analytics (on PostgreSQL without the inserting-transaction column's
 * default and index, migration 0095), and as
 * long with the analytics task folding the backlog every 2 s as the scheduler runs it, on the fold
 * thread (the server's default: nice 19) and on the event loop (ANALYTICS_FOLD_THREAD=false),
 * rotating ROUNDS times. Per mode also the CPU of the whole process and of the event loop's thread
 * alone, how far the fold was behind when ingestion stopped (in seconds of ingestion) and how long
 * it then took to catch up.
 *
 * Reading a loaded database again (the 10 M load takes 1.5 min on SQLite, 7–8 on PostgreSQL):
 * KEEP_DB=1 keeps the database and prints its target; REUSE='<that JSON>' (several separated by
 * ';') skips the load and reads it as it is, after migrating it to the latest schema (so a new
 * index is measured on the same data), and never drops it. PROFILE_READS=1 adds one line per page
 * with the time of each store call.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { KyselyAnalyticsFoldStore } from '../../src/analytics/store/fold.kysely-store.js';
import { planFold } from '../../src/analytics/fold/fold-plan.js';
import { COUNTERS, HOUR_MS } from '../../src/analytics/model/counters.js';
import { buildApp } from '../../src/app.js';
import type { Clock } from '../../src/common/clock.js';
import { LOWEST_PRIORITY_NICE } from '../../src/common/thread-priority.js';
import { createContainer } from '../../src/container.js';
import { openDatabase, type DatabaseHandle, type DatabaseTarget } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { attachAnalytics } from '../../src/storage/sqlite/sqlite-analytics-file.js';
import { eventLoopCpuMs, machineLine } from '../support/processes.js';
import { databasesToRun, dropPgSchema, PG_URL } from '../support/postgres.js';
import { generateHours, ITEMS_PER_SEARCH } from './aggregates.js';

const ITEMS = Number(process.env.ITEMS ?? 10_000_000);
const DAYS = Number(process.env.DAYS ?? 30);
const QUERIES = Number(process.env.QUERIES ?? 50_000);
const DATABASES = databasesToRun('sqlite,postgres');
const INGEST_SECONDS = Number(process.env.INGEST_SECONDS ?? 8);
const IN_FLIGHT = (process.env.IN_FLIGHT ?? '8,64').split(',').map(Number);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const START = Date.parse('2026-10-01T00:00:00Z');
const END = START + DAYS * 24 * HOUR_MS;

interface Opened {
  handle: DatabaseHandle;
  target: DatabaseTarget;
  drop(): Promise<void>;
}

/** Databases loaded by an earlier run (KEEP_DB=1), to read again. */
const REUSE = (process.env.REUSE ?? '')
  .split(';')
  .filter((t) => t.trim() !== '')
  .map((t) => JSON.parse(t) as DatabaseTarget);

async function open(kind: string, reuse = false): Promise<Opened & { reused: boolean }> {
  const kept = reuse ? REUSE.find((t) => t.kind === kind) : undefined;
  if (kept) {
    const handle = await openDatabase(kept, kept.kind === 'postgres' ? { poolSize: 10, statementTimeoutMs: 600_000 } : undefined);
    await migrateToLatest(handle);
    return { handle, target: kept, reused: true, drop: async () => undefined };
  }
  const suffix = randomBytes(4).toString('hex');
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-analytics-'));
    const target: DatabaseTarget = { kind: 'sqlite', path: path.join(dir, 'bench.db') };
    const handle = await openDatabase(target);
    await migrateToLatest(handle);
    return { handle, target, reused: false, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_analytics_${suffix}`;
  const target: DatabaseTarget = { kind: 'postgres', url: PG_URL, schema };
  const handle = await openDatabase(target, { poolSize: 10, statementTimeoutMs: 600_000 });
  await migrateToLatest(handle);
  return {
    handle,
    target,
    reused: false,
    drop: () => dropPgSchema(schema),
  };
}

const COLUMNS = ['dimension', 'dim_value', 'hour', ...COUNTERS];
const QUERY_COLUMNS = [...COLUMNS, 'query_hash'];
const QUERY_INDEX =
  'create index analytics_query_hours_query_idx on analytics_query_hours (dimension, dim_value, query_hash, hour, searches)';

/**
 * Writes the generated aggregates in one transaction, with the query-hours secondary index (and,
 * on PostgreSQL, the primary key) dropped during the load and built once afterwards: multi-row
 * prepared inserts on SQLite, unnest() of arrays over several hours at once on PostgreSQL. Then
 * the span totals are built by the store's own code (the first fold moves the anchor from null to
 * the end of the data: one rebuild of every span from the hour rows), timed separately.
 */
async function load(o: Opened): Promise<{ rows: number; seconds: number; windowSeconds: number }> {
  const started = performance.now();
  let rows = 0;
  const hours = generateHours({ items: ITEMS, days: DAYS, queries: QUERIES, start: START, seed: 12 });
  const value = (c: string, hour: number, r: { dimension: string; value: string; counters: Record<string, number>; queryHash?: string }) =>
    c === 'dimension'
      ? r.dimension
      : c === 'dim_value'
        ? r.value
        : c === 'hour'
          ? hour
          : c === 'query_hash'
            ? r.queryHash!
            : r.counters[c]!;
  if (o.target.kind === 'sqlite') {
    const db = new BetterSqlite3(o.target.path);
    db.pragma('journal_mode = WAL');
    // The analytics tables live in the attached analytics file (migration 0090).
    attachAnalytics(db, o.target.path);
    for (const schema of ['main', 'analytics']) {
      db.pragma(`${schema}.synchronous = OFF`);
      db.pragma(`${schema}.cache_size = -262144`);
    }
    const CHUNK = 25;
    const statement = (table: string, columns: string[], n: number) =>
      db.prepare(
        `insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: n }, () => `(${columns.map(() => '?').join(', ')})`).join(', ')}`,
      );
    const many = { t: statement('analytics_total_hours', COLUMNS, CHUNK), q: statement('analytics_query_hours', QUERY_COLUMNS, CHUNK) };
    const one = { t: statement('analytics_total_hours', COLUMNS, 1), q: statement('analytics_query_hours', QUERY_COLUMNS, 1) };
    const write = (kind: 't' | 'q', hour: number, list: Parameters<typeof value>[2][]) => {
      const columns = kind === 't' ? COLUMNS : QUERY_COLUMNS;
      let i = 0;
      for (; i + CHUNK <= list.length; i += CHUNK) {
        const params: unknown[] = [];
        for (let j = i; j < i + CHUNK; j += 1) for (const c of columns) params.push(value(c, hour, list[j]!));
        many[kind].run(params);
      }
      for (; i < list.length; i += 1) one[kind].run(columns.map((c) => value(c, hour, list[i]!)));
    };
    db.exec('drop index analytics_query_hours_query_idx');
    db.transaction(() => {
      for (const h of hours) {
        if ((h.hour - START) % (100 * HOUR_MS) === 0)
          console.error(
            `  ${o.target.kind}: hour ${(h.hour - START) / HOUR_MS}, ${rows} rows, ${((performance.now() - started) / 1000).toFixed(0)} s`,
          );
        write('t', h.hour, h.rows.total);
        write('q', h.hour, h.rows.query);
        rows += h.rows.total.length + h.rows.query.length;
      }
    })();
    // SQLite creates an unqualified index in main, looking for its table there: name the analytics file.
    db.exec(QUERY_INDEX.replace('create index ', 'create index analytics.'));
    db.exec('analyze');
    db.close();
  } else {
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${o.target.schema}` });
    await client.connect();
    const types = (columns: string[]) =>
      columns.map((c) =>
        c === 'dimension' || c === 'dim_value' || c === 'query_hash' ? 'text[]' : c === 'first_click_rr_sum' ? 'float8[]' : 'int8[]',
      );
    const insert = async (table: string, columns: string[], batch: { hour: number; list: Parameters<typeof value>[2][] }[]) => {
      const t = types(columns);
      const arrays = columns.map((c) => batch.flatMap((b) => b.list.map((r) => value(c, b.hour, r))));
      await client.query(
        `insert into ${table} (${columns.join(', ')}) select * from unnest(${columns.map((_, i) => `$${i + 1}::${t[i]}`).join(', ')})`,
        arrays,
      );
    };
    await client.query('begin');
    await client.query('set local synchronous_commit = off');
    await client.query('drop index analytics_query_hours_query_idx');
    await client.query('alter table analytics_query_hours drop constraint analytics_query_hours_pk');
    let batch: { hour: number; total: Parameters<typeof value>[2][]; query: Parameters<typeof value>[2][] }[] = [];
    const flush = async () => {
      await insert(
        'analytics_total_hours',
        COLUMNS,
        batch.map((b) => ({ hour: b.hour, list: b.total })),
      );
      await insert(
        'analytics_query_hours',
        QUERY_COLUMNS,
        batch.map((b) => ({ hour: b.hour, list: b.query })),
      );
      batch = [];
    };
    for (const h of hours) {
      if ((h.hour - START) % (100 * HOUR_MS) === 0)
        console.error(
          `  ${o.target.kind}: hour ${(h.hour - START) / HOUR_MS}, ${rows} rows, ${((performance.now() - started) / 1000).toFixed(0)} s`,
        );
      batch.push({ hour: h.hour, total: h.rows.total, query: h.rows.query });
      rows += h.rows.total.length + h.rows.query.length;
      if (batch.length === 6) await flush();
    }
    if (batch.length > 0) await flush();
    await client.query(
      'alter table analytics_query_hours add constraint analytics_query_hours_pk primary key (dimension, dim_value, hour, query_hash)',
    );
    await client.query(QUERY_INDEX);
    await client.query('commit');
    // Steady state: autovacuum has set the visibility map (index-only scans) and statistics.
    await client.query('vacuum analyze');
    await client.end();
  }
  const seconds = (performance.now() - started) / 1000;
  const w = performance.now();
  const store = new KyselyAnalyticsFoldStore(o.handle.db, o.handle.capabilities);
  await store.aggregateNext(1, planFold, END);
  if (o.target.kind === 'postgres') await sql`vacuum analyze analytics_query_windows`.execute(o.handle.db);
  else await sql`analyze`.execute(o.handle.db);
  return { rows, seconds, windowSeconds: (performance.now() - w) / 1000 };
}

/** Median wall-clock ms of 5 runs after a warm-up; the median CPU ms of this process is kept in `cpu` under `label`. */
async function median(cpu: Record<string, number>, label: string, run: () => Promise<unknown>, times = 5): Promise<number> {
  await run();
  const ms: number[] = [];
  const used: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const t = performance.now();
    const c = process.cpuUsage();
    await run();
    const d = process.cpuUsage(c);
    ms.push(performance.now() - t);
    used.push((d.user + d.system) / 1000);
  }
  cpu[label] = used.sort((a, b) => a - b)[Math.floor(times / 2)]!;
  return ms.sort((a, b) => a - b)[Math.floor(times / 2)]!;
}

async function reads(kind: string): Promise<string[]> {
  const o = await open(kind, true);
  try {
    const { rows, seconds, windowSeconds } = o.reused ? { rows: 0, seconds: 0, windowSeconds: 0 } : await load(o);
    const clock: Clock = { now: () => END };
    const container = createContainer(o.handle, clock);
    const service = container.analytics.services.analyticsService;
    const window = { from: new Date(START).toISOString(), to: new Date(END).toISOString() };
    // CPU time of this process: on SQLite the whole request (the database runs in it), so less
    // sensitive than wall-clock time to the load of a shared machine; on PostgreSQL only the client's share.
    const cpu: Record<string, number> = {};
    const queries = await median(cpu, 'by searches', () => service.queries({ ...window, sort: 'searches', minSearches: 10, limit: 50 }));
    const worst = await median(cpu, 'by abandonment', () =>
      service.queries({ ...window, sort: 'abandonment', minSearches: 10, limit: 50 }),
    );
    const change = await median(cpu, 'by change', () => service.queries({ ...window, sort: 'change', minSearches: 10, limit: 50 }));
    const overview = await median(cpu, 'overview', () => service.overview({ ...window, interval: 'day' }));
    const week = await median(cpu, '7 d', () =>
      service.queries({ from: new Date(END - 7 * 24 * HOUR_MS).toISOString(), to: window.to, minSearches: 10, limit: 50 }),
    );
    const page = await service.queries({ ...window, minSearches: 10, limit: 50 });
    if (process.env.PROFILE_READS === '1') {
      // Where a page's time goes: each store call of one request, timed (they overlap when concurrent).
      // The store is a facade (arrow-function properties) over objects whose methods do the work:
      // the async methods of its prototype chain and of each object it holds are wrapped on the instance.
      type Methods = Record<string, (...a: unknown[]) => Promise<unknown>>;
      const store = (service as unknown as { store: Methods }).store;
      const spent: string[] = [];
      const objects = [store, ...Object.values(store).filter((v) => typeof v === 'object' && v !== null)] as Methods[];
      const methods = (o: object): string[] => {
        const names: string[] = [];
        for (let p = Object.getPrototypeOf(o) as object | null; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null)
          names.push(...Object.getOwnPropertyNames(p));
        return [...new Set(names)];
      };
      for (const target of objects) {
        for (const name of methods(target)) {
          const f = target[name];
          if (typeof f !== 'function' || f.constructor.name !== 'AsyncFunction') continue;
          target[name] = async (...a: unknown[]) => {
            const t = performance.now();
            try {
              return await f.apply(target, a);
            } finally {
              spent.push(`${name} ${(performance.now() - t).toFixed(0)} ms`);
            }
          };
        }
      }
      for (const sort of ['searches', 'change'] as const) {
        spent.length = 0;
        const t = performance.now();
        await service.queries({ ...window, sort, minSearches: 10, limit: 50 });
        console.error(`  ${kind} page by ${sort}: ${(performance.now() - t).toFixed(0)} ms = ${spent.join(' · ')}`);
      }
      spent.length = 0;
      const t = performance.now();
      await service.overview({ ...window, interval: 'day' });
      console.error(`  ${kind} overview: ${(performance.now() - t).toFixed(0)} ms = ${spent.join(' · ')}`);
    }
    await container.close();
    return [
      `| ${kind} | ${o.reused ? 'database of an earlier run' : `${rows.toLocaleString('en')} rows loaded in ${seconds.toFixed(0)} s, spans built by the fold in ${windowSeconds.toFixed(0)} s`} | queries 30 d by searches ${queries.toFixed(0)} ms · by abandonment ${worst.toFixed(0)} ms · by change ${change.toFixed(0)} ms · 7 d ${week.toFixed(0)} ms | overview 30 d ${overview.toFixed(0)} ms | top query ${page.items[0]?.queryHash} with ${page.items[0]?.searches} searches |`,
      `| ${kind} | CPU of this process per request, median | ${Object.entries(cpu)
        .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
        .join(' · ')} | load average ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')} |`,
    ];
  } finally {
    await o.handle.close();
    if (o.reused) console.error(`  reused ${JSON.stringify(o.target)}`);
    else if (process.env.KEEP_DB === '1') console.error(`  kept ${JSON.stringify(o.target)}`);
    else await o.drop();
  }
}

export function body(i: number): string {
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

const PG_WARM_UP_REQUESTS = 2000;

async function postFeedback(app: Awaited<ReturnType<typeof buildApp>>, payload: string): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/api/cortex/feedback', headers: { 'content-type': 'application/json' }, payload });
  if (res.statusCode !== 201) throw new Error(`ingest answered ${res.statusCode}: ${res.body}`);
}

/** Ingestion without analytics, with the fold on its thread (the server's default), or on the event loop (ANALYTICS_FOLD_THREAD=false). */
type Mode = 'without' | 'thread' | 'event loop';

async function ingest(
  kind: string,
  mode: Mode,
  inFlight: number,
): Promise<{ items: number; seconds: number; behind: number; catchUpSeconds: number; cores: number; loopCores: number }> {
  const withAnalytics = mode !== 'without';
  const o = await open(kind);
  // The server's defaults: the fold thread at the lowest priority (ANALYTICS_FOLD_NICE).
  const container = createContainer(o.handle, undefined, {
    analyticsFoldThread: mode === 'thread',
    analyticsFoldNice: LOWEST_PRIORITY_NICE,
  });
  const app = await buildApp({ bodyLimitBytes: 2 * 1024 * 1024, logLevel: 'silent', logger: false }, container);
  await app.ready();
  try {
    // Without analytics, PostgreSQL's rows need no inserting transaction id nor its index (migration
    // 0095); SQLite's backlog is a rowid cursor and costs ingestion nothing (migration 0085).
    if (!withAnalytics && o.target.kind === 'postgres') {
      await sql`drop index feedback_items_analytics_xid_idx`.execute(o.handle.db);
      await sql`alter table feedback_items alter column analytics_xid drop default`.execute(o.handle.db);
    }
    let next = 0;
    if (o.target.kind === 'postgres') {
      // A running server's tables have statistics (autovacuum analyzes them); a fresh schema has
      // none, and then PostgreSQL plans the fold's statements as scans that grow with every batch
      // (fold-profile.ts, 2026-11-27, before migration 0095: 501 against 338 µs per item). So: 20 000 items first, folded
      // where analytics are on, then ANALYZE, as on a server that has been running.
      for (let i = 0; i < PG_WARM_UP_REQUESTS; i += 1) await postFeedback(app, body(next++));
      if (withAnalytics) while ((await container.analytics.services.analyticsService.catchUp()) > 0);
      await sql`analyze`.execute(o.handle.db);
    }
    // The fold thread starts (and loads its modules) once, before the measured seconds, as a
    // server's does at its first analytics run after boot.
    if (withAnalytics) await container.analytics.services.analyticsService.catchUp();
    const until = performance.now() + INGEST_SECONDS * 1000;
    let items = 0;
    const worker = async () => {
      while (performance.now() < until) {
        await postFeedback(app, body(next++));
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
    const cpu = process.cpuUsage();
    const loop = eventLoopCpuMs();
    await Promise.all(Array.from({ length: inFlight }, worker));
    const seconds = (performance.now() - started) / 1000;
    // Every thread of this process (event loop, fold thread, checkpointer, libuv's fsyncs): how much of the machine it used.
    const used = process.cpuUsage(cpu);
    const cores = (used.user + used.system) / 1e6 / seconds;
    const loopCores = (eventLoopCpuMs() - loop) / 1000 / seconds;

    // How far the fold was behind when ingestion stopped, and how long it then took to catch up:
    // a fold that kept pace is at most one task interval (2 s) of items behind.
    if (timer) clearInterval(timer);
    const store = new KyselyAnalyticsFoldStore(o.handle.db, o.handle.capabilities);
    const behind = withAnalytics ? await store.backlogSize() : 0;
    const stopped = performance.now();
    await folding;
    while (withAnalytics && (await container.analytics.services.analyticsService.catchUp()) > 0);
    const catchUpSeconds = (performance.now() - stopped) / 1000;
    return { items, seconds, behind, catchUpSeconds, cores, loopCores };
  } finally {
    await app.close();
    await container.close();
    await o.handle.close();
    await o.drop();
  }
}

/**
 * Side by side: ROUNDS rounds of the three modes, the order rotating each round, each run on a
 * fresh database, so that the load of the shared machine drifts over all of them equally.
 */
async function ingestionCost(kind: string, inFlight: number): Promise<string[]> {
  const modes: Mode[] = ['without', 'thread', 'event loop'];
  const per = new Map(
    modes.map((m) => [m, { items: 0, seconds: 0, behind: 0, catchUpSeconds: 0, cores: 0, loopCores: 0, rounds: [] as number[] }]),
  );
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = modes.map((_, i) => modes[(i + r) % modes.length]!);
    const got = new Map<Mode, number>();
    for (const mode of order) {
      const run = await ingest(kind, mode, inFlight);
      const p = per.get(mode)!;
      p.items += run.items;
      p.seconds += run.seconds;
      p.behind = Math.max(p.behind, run.behind / (run.items / run.seconds));
      p.catchUpSeconds = Math.max(p.catchUpSeconds, run.catchUpSeconds);
      p.cores += run.cores / ROUNDS;
      p.loopCores += run.loopCores / ROUNDS;
      got.set(mode, run.items / run.seconds);
    }
    for (const m of modes) per.get(m)!.rounds.push(got.get(m)! / got.get('without')!);
  }
  const rate = (m: Mode) => per.get(m)!.items / per.get(m)!.seconds;
  const cpu = (m: Mode) => `CPU ${per.get(m)!.cores.toFixed(2)} cores, event loop ${per.get(m)!.loopCores.toFixed(2)}`;
  const cost = (m: Mode) => {
    const p = per.get(m)!;
    return `${((1 - rate(m) / rate('without')) * 100).toFixed(1)} % (rounds ${p.rounds.map((x) => `${((1 - x) * 100).toFixed(1)}`).join(', ')}; at the stop at most ${p.behind.toFixed(1)} s of items behind, caught up ${p.catchUpSeconds.toFixed(1)} s later; ${cpu(m)})`;
  };
  return [
    `| ${kind} | ingestion, ${inFlight} requests of 10 items in flight, ${ROUNDS} × ${INGEST_SECONDS} s per mode, rotating | without analytics ${rate('without').toFixed(0)} items/s (${cpu('without')}) | fold thread ${rate('thread').toFixed(0)} items/s, cost ${cost('thread')} | fold on the event loop ${rate('event loop').toFixed(0)} items/s, cost ${cost('event loop')} |`,
  ];
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
      for (const inFlight of IN_FLIGHT) lines.push(...(await ingestionCost(kind, inFlight)));
    }
  }
  console.log(lines.join('\n'));
}

if (process.argv[1]?.endsWith('run.ts')) await main();
