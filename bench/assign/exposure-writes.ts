/**
 * bench/assign/exposure-writes: what one group of first exposures costs on SQLite, through the store
 * the assign route uses (KyselyExposureStore.recordExposures: Kysely's transaction, the driver's
 * sync) and in raw better-sqlite3 running the same two statements on the same migrated schema,
 * committed and then fdatasynced as the driver does. Every unit is new (a random key, as in
 * production). CPU of the whole process (user + system, every thread) per group, after 200 groups of
 * warm-up, for groups of 1, 4 and 32 exposures.
 *
 *   npm run bench:exposure-writes     (GROUPS=2000 OUT=<raw-output file, default bench/assign/last-run-exposure-writes.txt>
 *                                      DROP_UNIT_INDEX=1: without experiment_units_unit_idx, erasure's index)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import {
  KyselyExposureStore,
  SQLITE_COUNT_UNITS,
  SQLITE_INSERT_EXPOSURES,
} from '../../src/experiments/assignment/exposure.kysely-store.js';
import type { ExposureRecord } from '../../src/experiments/model/exposure.store.js';
import { exposureDay } from '../../src/experiments/model/exposure-day.js';
import { report } from '../support/report.js';
import { machineLine } from '../support/processes.js';

const GROUPS = Number(process.env.GROUPS ?? 2000);
const DROP = process.env.DROP_UNIT_INDEX === '1';
const OUT = path.resolve(process.env.OUT ?? path.join(import.meta.dirname, 'last-run-exposure-writes.txt'));
const EXPERIMENT = '01KBENCHEXPOSUREWRITES0000';
let unit = 0;
const group = (size: number): ExposureRecord[] =>
  Array.from({ length: size }, () => ({
    experimentId: EXPERIMENT,
    phase: 1,
    unitId: `u-${Math.random().toString(36).slice(2)}-${(unit += 1)}`,
    variantId: 'control',
    exposedAt: Date.now(),
    covariates: null,
  }));

/** CPU µs per call of `once`, after 200 calls of warm-up. */
async function cpuPerGroup(once: () => Promise<void> | void): Promise<number> {
  for (let i = 0; i < 200; i += 1) await once();
  const before = process.cpuUsage();
  for (let i = 0; i < GROUPS; i += 1) await once();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / GROUPS;
}

async function migratedFile(dir: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  const handle = await openDatabase({ kind: 'sqlite', path: file });
  await migrateToLatest(handle);
  if (DROP) await sql`drop index experiment_units_unit_idx`.execute(handle.db);
  await handle.close();
  return file;
}

async function throughStore(dir: string, size: number): Promise<number> {
  const handle = await openDatabase({ kind: 'sqlite', path: await migratedFile(dir, `store-${size}.db`) });
  const store = new KyselyExposureStore(handle.db, handle.capabilities);
  try {
    return await cpuPerGroup(async () => void (await store.recordExposures(group(size))));
  } finally {
    await handle.close();
  }
}

/** The store's own two SQLite statements, prepared on `db`, as one function of a group (every exposure of the bench is one variant on one day). */
function writer(db: BetterSqlite3.Database): (rows: ExposureRecord[]) => void {
  const insert = db.prepare(SQLITE_INSERT_EXPOSURES);
  const count = db.prepare(SQLITE_COUNT_UNITS);
  return (rows) => {
    const json = JSON.stringify(rows.map((r) => [r.experimentId, r.phase, r.unitId, r.variantId, r.exposedAt, null, null]));
    const fresh = insert.all(json) as { variant_id: string; exposed_at: number }[];
    count.run(JSON.stringify([[EXPERIMENT, 1, 'control', exposureDay(fresh[0]!.exposed_at), fresh.length]]));
  };
}

/** The driver's own synchronous transaction (what the import uses): its mutex, sync and checkpointer, no Kysely. */
async function throughDriver(dir: string, size: number): Promise<number> {
  const handle = await openDatabase({ kind: 'sqlite', path: await migratedFile(dir, `driver-${size}.db`) });
  let write: ((rows: ExposureRecord[]) => void) | undefined;
  try {
    return await cpuPerGroup(async () => {
      const rows = group(size);
      await handle.sqliteTransaction!((connection) => (write ??= writer(connection))(rows));
    });
  } finally {
    await handle.close();
  }
}

async function raw(dir: string, size: number): Promise<number> {
  const file = await migratedFile(dir, `raw-${size}.db`);
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const write = db.transaction(writer(db));
  const wal = fs.openSync(`${file}-wal`, 'r+');
  try {
    return await cpuPerGroup(() => {
      write(group(size));
      fs.fdatasyncSync(wal);
    });
  } finally {
    fs.closeSync(wal);
    db.close();
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-exposure-writes-'));
const out = report(OUT);
out.log(`bench/assign/exposure-writes — ${new Date().toISOString().slice(0, 16)}Z — ${machineLine()}`);
out.log(
  `SQLite, ${GROUPS} groups per row after 200 of warm-up, every unit new; CPU of the whole process per group${DROP ? '; without experiment_units_unit_idx' : ''}\n`,
);
out.log("| exposures per group | raw better-sqlite3 µs | the driver's raw transaction µs | through the store µs | store per exposure µs |");
out.log('|---:|---:|---:|---:|---:|');
try {
  for (const size of [1, 4, 32]) {
    const r = await raw(dir, size);
    const d = await throughDriver(dir, size);
    const s = await throughStore(dir, size);
    out.log(`| ${size} | ${r.toFixed(0)} | ${d.toFixed(0)} | ${s.toFixed(0)} | ${(s / size).toFixed(0)} |`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
out.save();
