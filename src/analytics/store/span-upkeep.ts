import { sql, type Transaction } from 'kysely';
import { addExcluded } from '../../storage/additive-upsert.js';
import type { Database } from '../../storage/schema.js';
import type { RowDelta } from '../fold/fold-plan.js';
import { COUNTERS, HOUR_MS, emptyCounters, type Counters } from '../model/counters.js';
import { SPANS_MS, type SignedRange } from '../fold/spans.js';
import { insertBatches } from '../../storage/batch-write.js';

/**
 * Upkeep of the precomputed spans (analytics_query_windows, planned in fold/spans.ts): per query and
 * dimension value, sums over the 7, 14, 30 and 60 days that end at the anchor, kept by the fold in
 * its own transaction.
 */

type Trx = Transaction<Database>;

const SPAN_COLUMNS = ['hour_rows', ...COUNTERS] as const;
const spanKey = (span: number, r: RowDelta) => `${span}\u0001${r.key.dimension}\u0001${r.key.value}\u0001${r.key.queryHash}`;
const signed = (a: number, b: number, sign: 1 | -1): SignedRange =>
  a <= b ? { fromHour: a, toHour: b, sign } : { fromHour: b, toHour: a, sign: sign === 1 ? -1 : 1 };

/**
 * Adds the fold's per-query deltas of hours before the anchor (late events) to the spans that
 * hold those hours, counting the hour rows the deltas created.
 */
export function addLateHoursToSpans(trx: Trx, perQuery: RowDelta[], created: ReadonlySet<string>, anchor: number | null): Promise<void> {
  if (anchor === null) return Promise.resolve();
  const longest = Math.max(...SPANS_MS);
  const late = perQuery.filter((r) => r.key.hour < anchor && r.key.hour >= anchor - longest);
  if (late.length === 0) return Promise.resolve();
  return writeSpanDeltas(trx, late, created, anchor);
}

async function writeSpanDeltas(trx: Trx, late: RowDelta[], created: ReadonlySet<string>, anchor: number): Promise<void> {
  const add = new Map<string, { span: number; dimension: string; dim_value: string; query_hash: string; hour_rows: number } & Counters>();
  for (const r of late) {
    const isNew = created.has(`${r.key.dimension}\u0001${r.key.value}\u0001${r.key.hour}\u0001${r.key.queryHash}`) ? 1 : 0;
    for (const span of SPANS_MS) {
      if (r.key.hour < anchor - span) continue;
      const k = spanKey(span, r);
      let w = add.get(k);
      if (!w) {
        w = {
          span: span / HOUR_MS,
          dimension: r.key.dimension,
          dim_value: r.key.value,
          query_hash: r.key.queryHash!,
          hour_rows: 0,
          ...emptyCounters(),
        };
        add.set(k, w);
      }
      w.hour_rows += isNew;
      for (const c of COUNTERS) w[c] += r.counters[c];
    }
  }
  const rows = [...add.values()];
  await insertBatches(rows, (slice) =>
    trx
      .insertInto('analytics_query_windows')
      .values(slice)
      .onConflict((oc) =>
        oc.columns(['span', 'dimension', 'dim_value', 'query_hash']).doUpdateSet(addExcluded('analytics_query_windows', SPAN_COLUMNS)),
      )
      .execute(),
  );
}

/**
 * Moves every span's end from `from` to `to`: adds the hours that enter it and subtracts those
 * that leave it (or rebuilds it from the hours when it moves by a span or more, or was never built).
 */
export async function moveSpans(trx: Trx, from: number | null, to: number): Promise<void> {
  for (const span of SPANS_MS) {
    const spanHours = span / HOUR_MS;
    if (from === null || Math.abs(to - from) >= span) {
      await trx.deleteFrom('analytics_query_windows').where('span', '=', spanHours).execute();
      await addHoursToSpan(trx, spanHours, { fromHour: to - span, toHour: to, sign: 1 });
    } else {
      await addHoursToSpan(trx, spanHours, signed(from, to, 1));
      await addHoursToSpan(trx, spanHours, signed(from - span, to - span, -1));
      // A query without hour rows left in the span has nothing in it (every counter is back to 0).
      await trx.deleteFrom('analytics_query_windows').where('span', '=', spanHours).where('hour_rows', '<=', 0).execute();
    }
  }
}

async function addHoursToSpan(trx: Trx, spanHours: number, range: SignedRange): Promise<void> {
  const sign = sql.lit(range.sign);
  const select = trx
    .selectFrom('analytics_query_hours')
    .select([
      sql.lit(spanHours).as('span'),
      'dimension',
      'dim_value',
      'query_hash',
      sql`${sign} * count(*)`.as('hour_rows'),
      ...COUNTERS.map((c) => sql`${sign} * sum(${sql.ref(c)})`.as(c)),
    ])
    .where('hour', '>=', range.fromHour)
    .where('hour', '<', range.toHour)
    .groupBy(['dimension', 'dim_value', 'query_hash']);
  await trx
    .insertInto('analytics_query_windows')
    .columns(['span', 'dimension', 'dim_value', 'query_hash', ...SPAN_COLUMNS])
    .expression(select)
    .onConflict((oc) =>
      oc.columns(['span', 'dimension', 'dim_value', 'query_hash']).doUpdateSet(addExcluded('analytics_query_windows', SPAN_COLUMNS)),
    )
    .execute();
}
