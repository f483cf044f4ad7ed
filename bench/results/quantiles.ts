/**
 * bench/results/quantiles: what the quantile metrics cost (issue 13), side by side in one run, on SQLite
 * and PostgreSQL. (1) Attribution of the same feedback with and without time-to-click and dwell values
 * (every click carries both, so each item adds to the grid sums of two sources). (2) GET …/results of the
 * same experiment with [ctr, time_to_click_p50, dwell_time_p90] against [ctr, time_to_click, dwell_time]
 * (ratio metrics of the same fields), 2 variants × 14 exposure days.
 *
 *   npm run bench:quantiles            (SESSIONS=10000 BENCH_PG_URL=postgres://…)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../../src/app.js';
import { createContainer } from '../../src/container.js';
import type { DatabaseTarget } from '../../src/storage/database.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import type { Database } from '../../src/storage/schema.js';
import { machineLine } from '../support/processes.js';
import { dropPgSchema, PG_URL } from '../support/postgres.js';
import { median } from '../support/stats.js';

const SESSIONS = Number(process.env.SESSIONS ?? 10_000);
const ITEMS_PER_SESSION = 10;

async function generate(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', experimentId: string, withValues: boolean) {
  const now = Date.now();
  const series =
    dialect === 'sqlite'
      ? (n: number) => sql`with recursive s(i) as (select 0 union all select i + 1 from s where i < ${sql.lit(n - 1)})`
      : (n: number) => sql`with s(i) as (select generate_series(0, ${sql.lit(n - 1)}))`;
  const int = (max: number) =>
    dialect === 'sqlite' ? sql`(abs(random()) % ${sql.lit(max)})` : sql`floor(random() * ${sql.lit(max)})::int`;
  await sql`${series(SESSIONS)}
    insert into experiment_units (experiment_id, phase, unit_id, variant_id, exposed_at, covariates)
    select ${experimentId}, 0, 'unit-' || i, case when i % 2 = 0 then 'control' else 'treatment' end, ${sql.lit(now)} - (i % 14) * 86400000 - 1000, null
    from s`.execute(db);
  const day = sql`(exposed_at / 86400000)`;
  await sql`insert into experiment_variant_units (experiment_id, phase, variant_id, day, units)
    select experiment_id, phase, variant_id, ${day}, count(*) from experiment_units where experiment_id = ${experimentId} group by experiment_id, phase, variant_id, ${day}`.execute(
    db,
  );
  const click = sql`i % 2 = 0`;
  const value = (expr: ReturnType<typeof int>) => (withValues ? sql`case when ${click} then ${expr} else null end` : sql`null`);
  await sql`${series(SESSIONS * ITEMS_PER_SESSION)}
    insert into feedback_items (id, submission_id, seq, session_id, query_id, user_action, event_time, received_at, position, time_to_click, dwell_time, attributed)
    select ${dialect === 'sqlite' ? sql`printf('%026d', i)` : sql`lpad(i::text, 26, '0')`}, 'bench', i, 'unit-' || (i / ${sql.lit(ITEMS_PER_SESSION)}), 'q-' || (i / 3),
      case when ${click} then 'click' else 'impression' end, ${sql.lit(now)}, ${sql.lit(now)}, 1 + i % 10,
      ${value(sql`200 + ${int(20000)}`)}, ${value(sql`1000 + ${int(600000)}`)}, 0
    from s`.execute(db);
}

async function measure(target: DatabaseTarget, dialect: 'sqlite' | 'postgres', withValues: boolean) {
  const handle = await openDatabase(target);
  await migrateToLatest(handle);
  const container = createContainer(handle);
  const app = await buildApp({ bodyLimitBytes: 1 << 20, logLevel: 'silent', logger: false }, container);
  const base = '/api/nous/ab-testing/experiments';
  const created = await app.inject({
    method: 'POST',
    url: base,
    payload: {
      name: 'bench-quantiles',
      configuration: {
        variants: [{ id: 'control' }, { id: 'treatment' }],
        targetMetrics: ['ctr', 'time_to_click_p50', 'dwell_time_p90'],
        analysis: { cuped: false },
      },
    },
  });
  const id = created.json().data.experimentId as string;
  await app.inject({ method: 'POST', url: `${base}/${id}/start` });
  await generate(handle.db, dialect, id, withValues);
  const t0 = performance.now();
  const attributed = await container.experiments.services.attributionService.catchUp();
  const attributionMs = performance.now() - t0;
  const readOnce = async (): Promise<number> => {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url: `${base}/${id}/results` });
    if (res.statusCode !== 200) throw new Error(res.body);
    return performance.now() - start;
  };
  const patch = (targetMetrics: string[]) =>
    app.inject({ method: 'PATCH', url: `${base}/${id}`, payload: { configuration: { targetMetrics } } });
  let quantileReadMs = null;
  let ratioReadMs = null;
  if (withValues) {
    // Alternating reads of the same experiment with quantile and with ratio targets, so load drifts hit both.
    const q: number[] = [];
    const r: number[] = [];
    await readOnce();
    for (let i = 0; i < 9; i += 1) {
      await patch(['ctr', 'time_to_click_p50', 'dwell_time_p90']);
      q.push(await readOnce());
      await patch(['ctr', 'time_to_click', 'dwell_time']);
      r.push(await readOnce());
    }
    quantileReadMs = median(q);
    ratioReadMs = median(r);
  }
  await app.close();
  await container.learning.close();
  await handle.close();
  return { attributed, attributionMs, quantileReadMs, ratioReadMs };
}

async function onPostgres<T>(run: (target: DatabaseTarget) => Promise<T>): Promise<T> {
  const schema = `bench_quantiles_${Date.now()}`;
  try {
    return await run({ kind: 'postgres', url: PG_URL, schema });
  } finally {
    await dropPgSchema(schema);
  }
}

const ROUNDS = Number(process.env.ROUNDS ?? 2);
const rows: { round: number; db: string; values: boolean; r: Awaited<ReturnType<typeof measure>> }[] = [];
async function onSqlite(values: boolean) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-quantiles-'));
  try {
    return await measure({ kind: 'sqlite', path: path.join(dir, 'q.db') }, 'sqlite', values);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
// Without and with values back to back per database, the order flipped every round, so load drift hits both.
for (let round = 1; round <= ROUNDS; round += 1) {
  const order = round % 2 === 1 ? [false, true] : [true, false];
  for (const values of order) rows.push({ round, db: 'SQLite', values, r: await onSqlite(values) });
  for (const values of order) rows.push({ round, db: 'PostgreSQL', values, r: await onPostgres((t) => measure(t, 'postgres', values)) });
  process.stderr.write(`done round ${round}\n`);
}

console.log(
  `\nbench/results/quantiles — ${new Date().toISOString().slice(0, 10)} — ${machineLine()} — load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`,
);
console.log(`${SESSIONS.toLocaleString('en')} sessions × ${ITEMS_PER_SESSION} items (half clicks), 2 variants × 14 exposure days\n`);
console.log('| round | database | clicks carry time to click and dwell | items attributed | attribution s | items/s |');
console.log('|---:|---|---|---:|---:|---:|');
for (const { round, db, values, r } of rows) {
  const seconds = r.attributionMs / 1000;
  console.log(
    `| ${round} | ${db} | ${values ? 'yes' : 'no'} | ${r.attributed.toLocaleString('en')} | ${seconds.toFixed(1)} | ${Math.round(r.attributed / seconds).toLocaleString('en')} |`,
  );
}
console.log('\n| round | database | attribution time with / without values |');
console.log('|---:|---|---:|');
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const db of ['SQLite', 'PostgreSQL']) {
    const of = (v: boolean) => rows.find((x) => x.round === round && x.db === db && x.values === v)!.r.attributionMs;
    console.log(`| ${round} | ${db} | ${(of(true) / of(false)).toFixed(2)} |`);
  }
}
console.log(
  '\n| round | database | GET …/results [ctr, time_to_click_p50, dwell_time_p90], median of 9, ms | [ctr, time_to_click, dwell_time] ms | ratio |',
);
console.log('|---:|---|---:|---:|---:|');
for (const { round, db, r } of rows.filter((x) => x.values)) {
  console.log(
    `| ${round} | ${db} | ${r.quantileReadMs!.toFixed(1)} | ${r.ratioReadMs!.toFixed(1)} | ${(r.quantileReadMs! / r.ratioReadMs!).toFixed(2)} |`,
  );
}
