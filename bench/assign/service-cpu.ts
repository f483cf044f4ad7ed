/**
 * bench/assign/service-cpu: CPU per assignment of the assignment service and its exposure store
 * alone (no HTTP), in this process (all threads: the SQLite WAL sync and checkpoint threads
 * count), with 3 running experiments and every call a new unit, on SQLite and PostgreSQL. Calls
 * run in waves of CONCURRENCY at once (64 = the bench's connections, so group commits form as
 * under load; 1 = one commit per call). With BASELINE (a directory holding another build's dist/)
 * the builds run in alternating rounds in the same process, so both see the same machine load.
 *
 *   npm run bench:assign-service-cpu                (BASELINE=<dir with dist/> CANDIDATE=<dir with dist/>
 *                                                    CONCURRENCY=64 CALLS=20000 ROUNDS=3)
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildsToCompare, inRoundOrder } from '../support/builds.js';
import { loadAverage } from '../support/load.js';
import { BENCH_ATTRIBUTES, BENCH_EXPERIMENTS } from '../support/experiments.js';
import { machineLine } from '../support/processes.js';
import { createPgSchema, databasesToRun, dropPgSchema, PG_URL } from '../support/postgres.js';
import { median } from '../support/stats.js';

const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
const CALLS = Number(process.env.CALLS ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const DATABASES = databasesToRun('SQLite,PostgreSQL');
/**
 * What-if changes applied to the candidate's database only, to price a lever before building it:
 * `drop-unit-index` (experiment_units without its unit_id index, which erasure uses today),
 * `sqlite-cache-64mb` (SQLite page cache of 64 MB instead of 2 MB).
 */
const WHATIF = new Set((process.env.CANDIDATE_WHATIF ?? '').split(',').filter(Boolean));

interface Services {
  experimentService: { create(input: unknown): Promise<{ experimentId: string }> };
  lifecycleService: { act(id: string, action: string): Promise<unknown> };
  assignmentService: { assignAll(input: { unitId: string; attributes?: Record<string, unknown> }): Promise<unknown> };
}

const imported = (root: string, file: string) => import(pathToFileURL(path.join(root, 'dist', file)).href);

async function run(root: string, db: string, n: number, whatIf: Set<string>): Promise<number> {
  const { openDatabase } = await imported(root, 'storage/database.js');
  const { migrateToLatest } = await imported(root, 'storage/migrator.js');
  const { createExperimentsModule } = await imported(root, 'experiments/experiments.module.js');
  const schema = `bench_assign_svc_${n}_${Date.now()}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-assign-svc-'));
  if (db === 'PostgreSQL') await createPgSchema(schema);
  const database = await openDatabase(
    db === 'SQLite' ? { kind: 'sqlite', path: path.join(dir, 'svc.db') } : { kind: 'postgres', url: PG_URL, schema },
  );
  try {
    await migrateToLatest(database);
    if (whatIf.has('drop-unit-index')) await database.db.schema.dropIndex('experiment_units_unit_idx').execute();
    if (whatIf.has('sqlite-cache-64mb'))
      await database.sqliteTransaction?.((c: { pragma(s: string): unknown }) => c.pragma('cache_size = -65536'));
    const services = createExperimentsModule({ database, clock: { now: () => Date.now() } }).services as Services;
    for (const [i, configuration] of BENCH_EXPERIMENTS.entries()) {
      const { experimentId } = await services.experimentService.create({ name: `svc-${i}`, configuration });
      await services.lifecycleService.act(experimentId, 'start');
    }
    const attributes = BENCH_ATTRIBUTES;
    const wave = () =>
      Promise.all(Array.from({ length: CONCURRENCY }, () => services.assignmentService.assignAll({ unitId: randomUUID(), attributes })));
    for (let i = 0; i < 2000 / CONCURRENCY; i += 1) await wave(); // warm-up
    const before = process.cpuUsage();
    const waves = Math.ceil(CALLS / CONCURRENCY);
    for (let i = 0; i < waves; i += 1) await wave();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / (waves * CONCURRENCY);
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
    if (db === 'PostgreSQL') await dropPgSchema(schema).catch(() => undefined);
  }
}

const builds = buildsToCompare();
const rows: { round: number; build: string; db: string; cpuUs: number; load: string }[] = [];
let n = 0;
for (let round = 1; round <= ROUNDS; round += 1) {
  const ordered = inRoundOrder(builds, round);
  for (const db of DATABASES) {
    for (const [build, root] of ordered) {
      n += 1;
      const cpuUs = await run(root, db, n, build === 'this build' ? WHATIF : new Set());
      rows.push({ round, build, db, cpuUs, load: loadAverage() });
      process.stderr.write(`round ${round} ${build} ${db}: ${cpuUs.toFixed(1)} µs (${loadAverage()})\n`);
    }
  }
}

console.log(`\nbench/assign/service-cpu — ${new Date().toISOString().slice(0, 16)} — ${machineLine()}`);
console.log(
  `assignAll with 3 running experiments, every call a new unit, waves of ${CONCURRENCY} concurrent calls, ${CALLS} calls per case; CPU of this process (all threads) per call; what-if on this build: ${[...WHATIF].join(', ') || 'none'}\n`,
);
console.log('| round | build | database | CPU µs / call | load average 1/5/15 |');
console.log('|---:|---|---|---:|---|');
for (const r of rows) console.log(`| ${r.round} | ${r.build} | ${r.db} | ${r.cpuUs.toFixed(1)} | ${r.load} |`);
for (const db of DATABASES) {
  const line = builds.map(([b]) => `${b} ${median(rows.filter((r) => r.db === db && r.build === b).map((r) => r.cpuUs)).toFixed(1)} µs`);
  console.log(`median, ${db}: ${line.join(' → ')}`);
}
console.log("\nPostgreSQL's own CPU is not in these figures (it is a separate process).");
