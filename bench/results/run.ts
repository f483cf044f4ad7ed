/**
 * bench/results: time to compute an experiment's results with 1 000 000 sessions and
 * 10 000 000 feedback items, on SQLite and PostgreSQL, and at 100k / 300k sessions to show the
 * growth. Data is generated inside the database (recursive CTE / generate_series).
 *
 *   npm run bench:results            (SIZES=100000,300000,1000000 BENCH_PG_URL=postgres://…)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../../src/app.js';
import { METRIC_CATALOGUE } from '../../src/vocabulary/index.js';
import { createContainer } from '../../src/container.js';
import type { DatabaseTarget } from '../../src/storage/database.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import type { Database } from '../../src/storage/schema.js';
import { machineLine } from '../support/processes.js';
import { dropPgSchema, PG_URL } from '../support/postgres.js';

const SIZES = (process.env.SIZES ?? '100000,300000,1000000').split(',').map(Number);
const ITEMS_PER_SESSION = 10;

async function generate(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', experimentId: string, sessions: number) {
  const now = Date.now();
  const series =
    dialect === 'sqlite'
      ? (n: number) => sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${sql.lit(n)})`
      : (n: number) => sql`with s(i) as (select generate_series(1, ${sql.lit(n)}))`;
  const rand = dialect === 'sqlite' ? sql`(abs(random()) % 1000000) / 1000000.0` : sql`random()`;
  const int = (max: number) =>
    dialect === 'sqlite' ? sql`(abs(random()) % ${sql.lit(max)})` : sql`floor(random() * ${sql.lit(max)})::int`;
  await sql`${series(sessions)}
    insert into experiment_units (experiment_id, phase, unit_id, variant_id, exposed_at, covariates, impressions, clicks, searches, searches_with_click, rr_sum, rated_items, rating_sum, dwell_sum, dwell_count, satisfied_clicks, ttc_sum, ttc_count, scroll_sum, scroll_count, conversions)
    select ${experimentId}, 0, 'unit-' || i, case when i % 2 = 0 then 'control' else 'treatment' end, ${sql.lit(now)} - (i % 14) * 86400000, null,
      10, ${int(4)}, 3, ${int(3)}, ${rand}, ${int(2)}, ${int(5)}, ${int(90000)}, ${int(3)}, ${int(2)}, ${int(5000)}, ${int(2)}, ${rand}, 1, ${int(2)}
    from s`.execute(db);
  // The service keeps these variant-day sums up to date as it attributes feedback; generated
  // units skip attribution, so the bench folds them in once with the same definitions.
  const day = sql`(exposed_at / 86400000)`;
  await sql`insert into experiment_variant_units (experiment_id, phase, variant_id, day, units)
    select experiment_id, phase, variant_id, ${day}, count(*) from experiment_units where experiment_id = ${experimentId} group by experiment_id, phase, variant_id, ${day}`.execute(
    db,
  );
  for (const { name: metric, x, y } of METRIC_CATALOGUE) {
    const lin = (terms: readonly (readonly [string, number])[]) =>
      sql.join(
        terms.map(([c, k]) => (c === 'one' ? sql`${sql.lit(k)}` : sql`${sql.lit(k)} * ${sql.ref(c)}`)),
        sql` + `,
      );
    const X = sql`(${lin(x)})`;
    const Y = sql`(${lin(y)})`;
    await sql`insert into experiment_variant_sums (experiment_id, phase, variant_id, day, metric, sx, sy, sxx, syy, sxy)
      select experiment_id, phase, variant_id, ${day}, ${metric}, sum(${X}), sum(${Y}), sum(${X} * ${X}), sum(${Y} * ${Y}), sum(${X} * ${Y})
      from experiment_units where experiment_id = ${experimentId} group by experiment_id, phase, variant_id, ${day}`.execute(db);
  }
  const items = sessions * ITEMS_PER_SESSION;
  await sql`${series(items)}
    insert into feedback_items (id, submission_id, seq, session_id, query_id, rating, user_action, event_time, received_at, position, attributed)
    select ${dialect === 'sqlite' ? sql`printf('%026d', i)` : sql`lpad(i::text, 26, '0')`}, 'bench', i, 'unit-' || (i / ${sql.lit(ITEMS_PER_SESSION)}), 'q-' || (i / 3),
      null, case when i % 4 = 0 then 'click' else 'impression' end, ${sql.lit(now)}, ${sql.lit(now)}, 1 + i % 10, 1
    from s`.execute(db);
}

async function measure(target: DatabaseTarget, dialect: 'sqlite' | 'postgres', sessions: number) {
  const handle = await openDatabase(target);
  await migrateToLatest(handle);
  const container = createContainer(handle);
  const app = await buildApp({ bodyLimitBytes: 1 << 20, logLevel: 'silent', logger: false }, container);
  const created = await app.inject({
    method: 'POST',
    url: '/api/nous/ab-testing/experiments',
    payload: {
      name: `bench-${sessions}`,
      configuration: {
        variants: [{ id: 'control' }, { id: 'treatment' }],
        targetMetrics: ['ctr', 'mrr', 'abandonment_rate', 'conversion_rate'],
      },
    },
  });
  const id = created.json().data.experimentId as string;
  await app.inject({ method: 'POST', url: `/api/nous/ab-testing/experiments/${id}/start` });
  const t0 = performance.now();
  await generate(handle.db, dialect, id, sessions);
  const generateSeconds = (performance.now() - t0) / 1000;
  const times: number[] = [];
  for (let i = 0; i < 4; i += 1) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url: `/api/nous/ab-testing/experiments/${id}/results` });
    if (res.statusCode !== 200) throw new Error(res.body);
    if (i > 0) times.push(performance.now() - start); // the first call warms caches
  }
  times.sort((a, b) => a - b);
  await app.close();
  await container.learning.close();
  await handle.close();
  return { sessions, items: sessions * ITEMS_PER_SESSION, medianMs: times[1]!, bestMs: times[0]!, generateSeconds };
}

const rows: { db: string; r: Awaited<ReturnType<typeof measure>> }[] = [];
for (const sessions of SIZES) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-results-'));
  rows.push({ db: 'SQLite', r: await measure({ kind: 'sqlite', path: path.join(dir, 'r.db') }, 'sqlite', sessions) });
  fs.rmSync(dir, { recursive: true, force: true });
  const schema = `bench_results_${Date.now()}`;
  try {
    rows.push({ db: 'PostgreSQL', r: await measure({ kind: 'postgres', url: PG_URL, schema }, 'postgres', sessions) });
  } finally {
    await dropPgSchema(schema);
  }
  process.stderr.write(`done ${sessions}\n`);
}

console.log(`\nbench/results — ${new Date().toISOString().slice(0, 10)} — ${machineLine()}`);
console.log('GET …/results for 4 target metrics × 2 variants (median of 3 after a warm-up), feedback already attributed\n');
console.log('| database | sessions | feedback items | results median ms | best ms | ms per 100k sessions |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const { db, r } of rows) {
  console.log(
    `| ${db} | ${r.sessions.toLocaleString('en')} | ${r.items.toLocaleString('en')} | ${r.medianMs.toFixed(0)} | ${r.bestMs.toFixed(0)} | ${((r.medianMs / r.sessions) * 100_000).toFixed(1)} |`,
  );
}
