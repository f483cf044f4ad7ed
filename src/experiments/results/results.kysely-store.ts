import { sql, type Kysely, type RawBuilder } from 'kysely';
import { HOUR_MS } from '../../common/time.js';
import type { Database } from '../../storage/schema.js';
import { metricDefinition, startingValues, type LinearTerm, type MetricName, type QuantileSource } from '../../vocabulary/index.js';
import { gridFromRow } from '../model/stored-quantile-grid.js';
import { sliceRows } from './slice-rows.js';
import type {
  CovariateSums,
  DailyQuantileSums,
  HourlyMetricSums,
  ResultsStore,
  SliceMetricSums,
  SliceQuantileSums,
} from './results.store.js';
import type { DailyMetricSums } from '../model/metric-sums.js';

/** Column names come from the metric catalogue (constants), never from a request. */
function linear(terms: readonly LinearTerm[], table = 'u'): RawBuilder<number> {
  const parts = terms.map(([column, coefficient]) => {
    const value = column === 'one' ? sql`1.0` : sql.ref(`${table}.${column}`);
    return coefficient === 1 ? value : sql`(${sql.lit(coefficient)} * ${value})`;
  });
  return sql<number>`(${sql.join(parts, sql` + `)})`;
}

const num = (v: unknown) => Number(v ?? 0);

export class KyselyResultsStore implements ResultsStore {
  constructor(private readonly db: Kysely<Database>) {}

  async unitValues(experimentId: string, phase: number, metric: MetricName): Promise<{ variantId: string; x: number; y: number }[]> {
    const { x: xTerms, y: yTerms } = metricDefinition(metric);
    const rows = await this.db
      .selectFrom('experiment_units as u')
      .select([sql<string>`u.variant_id`.as('variant_id'), linear(xTerms).as('x'), linear(yTerms).as('y')])
      .where('u.experiment_id', '=', experimentId)
      .where('u.phase', '=', phase)
      .orderBy('u.unit_id')
      .execute();
    return rows.map((r) => ({ variantId: r.variant_id, x: num(r.x), y: num(r.y) }));
  }

  /** O(variants × days × sources) rows of grid sums. */
  async dailyQuantileSums(experimentId: string, phase: number, sources: readonly QuantileSource[]): Promise<DailyQuantileSums[]> {
    if (sources.length === 0) return [];
    const rows = await this.db
      .selectFrom('experiment_quantile_sums')
      .selectAll()
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .where('source', 'in', [...sources])
      .execute();
    return rows.map((r) => ({ variantId: r.variant_id, day: r.day, source: r.source as QuantileSource, sums: gridFromRow(r) }));
  }

  /** O(slice values × variants × sources) rows of grid sums. */
  async sliceQuantileSums(
    experimentId: string,
    phase: number,
    dimension: string,
    sources: readonly QuantileSource[],
  ): Promise<SliceQuantileSums[]> {
    if (sources.length === 0) return [];
    const rows = await this.db
      .selectFrom('experiment_slice_quantile_sums')
      .selectAll()
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .where('dimension', '=', dimension)
      .where('source', 'in', [...sources])
      .execute();
    return rows.map((r) => ({ value: r.value, variantId: r.variant_id, source: r.source as QuantileSource, sums: gridFromRow(r) }));
  }

  /** O(slice values × variants × metrics) rows; each slice starts from its units' starting values, like dailySums. */
  async sliceSums(experimentId: string, phase: number, dimension: string, metrics: readonly MetricName[]): Promise<SliceMetricSums[]> {
    const rows = await this.db
      .selectFrom('experiment_slice_sums')
      .select(['value', 'variant_id', 'metric', 'units', 'sx', 'sy', 'sxx', 'syy', 'sxy'])
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .where('dimension', '=', dimension)
      .where('metric', 'in', [...metrics])
      .execute();
    return sliceRows(
      rows.map((r) => ({
        value: r.value,
        variantId: r.variant_id,
        metric: r.metric as MetricName,
        units: num(r.units),
        sx: num(r.sx),
        sy: num(r.sy),
        sxx: num(r.sxx),
        syy: num(r.syy),
        sxy: num(r.sxy),
      })),
    );
  }

  /**
   * Reads the maintained variant-day sums: O(variants × days × metrics) rows, independent of
   * units. They hold the units' changes since exposure, so each day starts from its units'
   * starting values (Y = 1 per unit for a proportion of sessions such as conversion_rate).
   */
  async dailySums(experimentId: string, phase: number, metrics: readonly MetricName[]): Promise<DailyMetricSums[]> {
    const units = await this.db
      .selectFrom('experiment_variant_units')
      .select(['variant_id', 'day', 'units'])
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .execute();
    const sums = await this.db
      .selectFrom('experiment_variant_sums')
      .select(['variant_id', 'day', 'metric', 'sx', 'sy', 'sxx', 'syy', 'sxy'])
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .where('metric', 'in', [...metrics])
      .execute();
    const byKey = new Map<string, DailyMetricSums>();
    for (const u of units) {
      const n = num(u.units);
      const entry: DailyMetricSums = { variantId: u.variant_id, day: u.day, sums: {} };
      for (const m of metrics) {
        const { x, y } = startingValues(m);
        entry.sums[m] = { n, sumX: n * x, sumY: n * y, sumX2: n * x * x, sumY2: n * y * y, sumXY: n * x * y };
      }
      byKey.set(`${u.variant_id}\u0000${u.day}`, entry);
    }
    for (const r of sums) {
      const entry = byKey.get(`${r.variant_id}\u0000${r.day}`);
      if (!entry) continue;
      const s = entry.sums[r.metric as MetricName]!;
      entry.sums[r.metric as MetricName] = {
        n: s.n,
        sumX: s.sumX + num(r.sx),
        sumY: s.sumY + num(r.sy),
        sumX2: s.sumX2 + num(r.sxx),
        sumY2: s.sumY2 + num(r.syy),
        sumXY: s.sumXY + num(r.sxy),
      };
    }
    return [...byKey.values()];
  }

  /** One scan of the phase's units, grouped by variant and exposure hour; each metric's moments as its own columns. */
  async hourlySums(experimentId: string, phase: number, metrics: readonly MetricName[]): Promise<HourlyMetricSums[]> {
    if (metrics.length === 0) return [];
    // Integer division on both databases (exposed_at is an integer column): the hour as Math.floor(exposedAt / HOUR_MS).
    const hour = sql<number>`(u.exposed_at / ${sql.lit(HOUR_MS)})`;
    const columns = metrics.flatMap((m, i) => {
      const { x: xTerms, y: yTerms } = metricDefinition(m);
      const [x, y] = [linear(xTerms), linear(yTerms)];
      return [
        sql<number>`sum(${x})`.as(`sx${i}`),
        sql<number>`sum(${y})`.as(`sy${i}`),
        sql<number>`sum(${x} * ${x})`.as(`sxx${i}`),
        sql<number>`sum(${y} * ${y})`.as(`syy${i}`),
        sql<number>`sum(${x} * ${y})`.as(`sxy${i}`),
      ];
    });
    const rows = (await this.db
      .selectFrom('experiment_units as u')
      .select([sql<string>`u.variant_id`.as('variant_id'), hour.as('hour'), sql<number>`count(*)`.as('n'), ...columns])
      .where('u.experiment_id', '=', experimentId)
      .where('u.phase', '=', phase)
      .groupBy([sql`u.variant_id`, hour])
      .execute()) as Record<string, unknown>[];
    return rows.map((r) => ({
      variantId: String(r.variant_id),
      hour: num(r.hour),
      sums: Object.fromEntries(
        metrics.map((m, i) => [
          m,
          {
            n: num(r.n),
            sumX: num(r[`sx${i}`]),
            sumY: num(r[`sy${i}`]),
            sumX2: num(r[`sxx${i}`]),
            sumY2: num(r[`syy${i}`]),
            sumXY: num(r[`sxy${i}`]),
          },
        ]),
      ),
    }));
  }

  async metricsWithCovariates(experimentId: string, phase: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('experiment_unit_covariates')
      .select('metric')
      .distinct()
      .where('experiment_id', '=', experimentId)
      .where('phase', '=', phase)
      .execute();
    return rows.map((r) => r.metric);
  }

  async covariateSums(experimentId: string, phase: number, metric: MetricName): Promise<CovariateSums[]> {
    const { x: xTerms, y: yTerms } = metricDefinition(metric);
    const x = linear(xTerms);
    const y = linear(yTerms);
    // A unit without a covariate row gets C = D = 0: it contributes nothing to θ's fit.
    const c = sql<number>`coalesce(c.x, 0)`;
    const d = sql<number>`coalesce(c.y, 0)`;
    const rows = (await this.db
      .selectFrom('experiment_units as u')
      .leftJoin('experiment_unit_covariates as c', (j) =>
        j
          .onRef('c.experiment_id', '=', 'u.experiment_id')
          .onRef('c.phase', '=', 'u.phase')
          .onRef('c.unit_id', '=', 'u.unit_id')
          .on('c.metric', '=', metric),
      )
      .select([
        sql<string>`u.variant_id`.as('variant_id'),
        sql<number>`count(*)`.as('n'),
        sql<number>`count(c.metric)`.as('covered'),
        sql<number>`sum(${x})`.as('sx'),
        sql<number>`sum(${y})`.as('sy'),
        sql<number>`sum(${x} * ${x})`.as('sxx'),
        sql<number>`sum(${y} * ${y})`.as('syy'),
        sql<number>`sum(${x} * ${y})`.as('sxy'),
        sql<number>`sum(${c})`.as('sc'),
        sql<number>`sum(${c} * ${c})`.as('scc'),
        sql<number>`sum(${x} * ${c})`.as('sxc'),
        sql<number>`sum(${y} * ${c})`.as('syc'),
        sql<number>`sum(${d})`.as('sd'),
        sql<number>`sum(${d} * ${d})`.as('sdd'),
        sql<number>`sum(${x} * ${d})`.as('sxd'),
        sql<number>`sum(${y} * ${d})`.as('syd'),
        sql<number>`sum(${c} * ${d})`.as('scd'),
      ])
      .where('u.experiment_id', '=', experimentId)
      .where('u.phase', '=', phase)
      .groupBy(sql`u.variant_id`)
      .execute()) as Record<string, unknown>[];
    return rows.map((r) => ({
      variantId: String(r.variant_id),
      n: num(r.n),
      covered: num(r.covered),
      sumX: num(r.sx),
      sumY: num(r.sy),
      sumX2: num(r.sxx),
      sumY2: num(r.syy),
      sumXY: num(r.sxy),
      sumC: num(r.sc),
      sumC2: num(r.scc),
      sumXC: num(r.sxc),
      sumYC: num(r.syc),
      sumD: num(r.sd),
      sumD2: num(r.sdd),
      sumXD: num(r.sxd),
      sumYD: num(r.syd),
      sumCD: num(r.scd),
    }));
  }
}
