/**
 * bench/scaling: 1, 2 and 4 Searchloop instances, each its own process, against one PostgreSQL
 * schema on this machine, loaded together (one autocannon per instance, the connections split
 * between them), with single-item and 50-item feedback. Prints the total rate per case and where
 * the CPU went (instances, PostgreSQL's processes, the load generator, anything else), read from
 * /proc, so the table shows which component saturates first.
 *
 *   npm run bench:scaling               (DURATION=15 CONNECTIONS=64 INSTANCES=1,2,4 BENCH_PG_URL=postgres://…)
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { feedbackBody } from '../ingest/bodies.js';
import { loadAverage, runLoad } from '../support/load.js';
import { machineLine, startProcess, type ServerProcess } from '../support/processes.js';
import { createPgSchema, dropPgSchema, PG_URL } from '../support/postgres.js';

const DURATION = Number(process.env.DURATION ?? 15);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const COUNTS = (process.env.INSTANCES ?? '1,2,4').split(',').map(Number);
const ROOT = path.resolve(import.meta.dirname, '../..');
const TICKS = 100; // USER_HZ

/** CPU seconds (user + system) of a process, or 0 when it is gone. */
function cpuOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

function postgresPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    });
}

/** Busy CPU seconds of the whole machine (every core). */
function machineBusy(): number {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const idle = cpu[3]! + cpu[4]!;
  return (cpu.reduce((a, b) => a + b, 0) - idle) / TICKS;
}

interface Row {
  instances: number;
  items: number;
  rps: number;
  itemsPerSecond: number;
  p99: number;
  cpu: { instances: number; postgres: number; generator: number; other: number; idle: number };
}
const rows: Row[] = [];
const loads: string[] = [loadAverage()];
const footprints: { items: number; bytes: number }[] = [];

/** Items stored and the bytes feedback_items takes with its indexes (every partition), in a schema. */
async function footprint(schema: string): Promise<{ items: number; bytes: number }> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const items = await client.query<{ n: string }>(`select count(*) as n from ${schema}.feedback_items`);
    const bytes = await client.query<{ b: string | null }>(
      `select coalesce(sum(pg_total_relation_size(c.oid)), 0) + pg_total_relation_size('${schema}.feedback_items'::regclass) as b
         from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = '${schema}.feedback_items'::regclass`,
    );
    return { items: Number(items.rows[0]!.n), bytes: Number(bytes.rows[0]!.b ?? 0) };
  } finally {
    await client.end();
  }
}

for (const n of COUNTS) {
  const schema = `bench_scaling_${n}_${Date.now()}`;
  await createPgSchema(schema);
  const servers: ServerProcess[] = [];
  try {
    // The first instance migrates; the others start once it is up.
    for (let i = 0; i < n; i += 1) {
      servers.push(
        await startProcess(
          process.execPath,
          [path.join(ROOT, 'dist/cli/cli.js'), 'serve'],
          { LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema },
          3600 + i,
        ),
      );
    }
    for (const items of [1, 50]) {
      const body = feedbackBody(items);
      const each = Math.max(1, Math.round(CONNECTIONS / n));
      const load = (seconds: number) =>
        Promise.all(
          servers.map((s) => runLoad({ url: `${s.url}/api/cortex/feedback`, connections: each, durationSeconds: seconds, body })),
        );
      await load(2);
      const pgPids = postgresPids();
      const before = {
        inst: servers.reduce((a, s) => a + cpuOf(s.child.pid!), 0),
        pg: pgPids.reduce((a, p) => a + cpuOf(p), 0),
        self: cpuOf(process.pid),
        busy: machineBusy(),
        wall: performance.now(),
      };
      const results = await load(DURATION);
      const wall = (performance.now() - before.wall) / 1000;
      const inst = servers.reduce((a, s) => a + cpuOf(s.child.pid!), 0) - before.inst;
      const pgCpu = postgresPids().reduce((a, p) => a + cpuOf(p), 0) - before.pg;
      const self = cpuOf(process.pid) - before.self;
      const busy = machineBusy() - before.busy;
      const cores = 2 * wall; // CPU seconds available on this machine's two cores
      const rps = results.reduce((a, r) => a + r.rps, 0);
      rows.push({
        instances: n,
        items,
        rps,
        itemsPerSecond: rps * items,
        p99: Math.max(...results.map((r) => r.p99)),
        cpu: {
          instances: inst / cores,
          postgres: pgCpu / cores,
          generator: self / cores,
          other: Math.max(0, busy - inst - pgCpu - self) / cores,
          idle: Math.max(0, cores - busy) / cores,
        },
      });
      loads.push(loadAverage());
      process.stderr.write(`${n} instance(s), ${items} item(s): ${rps.toFixed(0)} req/s\n`);
    }
    footprints.push(await footprint(schema));
  } finally {
    for (const s of servers) await s.stop();
    await dropPgSchema(schema).catch(() => undefined);
  }
}

const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
console.log(`\nbench/scaling — ${new Date().toISOString().slice(0, 10)} — ${machineLine()}`);
console.log(`${CONNECTIONS} connections in total split over the instances, ${DURATION} s per case, one PostgreSQL\n`);
console.log(
  '| instances | items/request | requests/s | items/s | worst p99 ms | CPU: instances | PostgreSQL | load generator | other jobs | idle |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.instances} | ${r.items} | ${r.rps.toFixed(0)} | ${r.itemsPerSecond.toFixed(0)} | ${r.p99} | ${pct(r.cpu.instances)} | ${pct(r.cpu.postgres)} | ${pct(r.cpu.generator)} | ${pct(r.cpu.other)} | ${pct(r.cpu.idle)} |`,
  );
}
console.log('\nCPU columns are shares of the machine (2 cores = 100 %) during the measured seconds.');
const stored = footprints.reduce((a, f) => ({ items: a.items + f.items, bytes: a.bytes + f.bytes }), { items: 0, bytes: 0 });
if (stored.items > 0) {
  console.log(
    `PostgreSQL footprint: ${stored.items} items in feedback_items took ${(stored.bytes / 2 ** 20).toFixed(0)} MiB with indexes, ${(stored.bytes / stored.items).toFixed(0)} bytes per item`,
  );
}
console.log(`load average (1/5/15 min) at the start and after each case: ${loads.join(' · ')}`);
