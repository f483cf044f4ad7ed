import { linearValue, metricDefinition, type MetricName, type QuantileSource } from '../../vocabulary/index.js';
import { FakeExperimentData, unitKey } from '../model/fake-experiment-data.js';
import { sliceRows } from './slice-rows.js';
import type {
  CovariateSums,
  DailyQuantileSums,
  HourlyMetricSums,
  ResultsStore,
  SliceMetricSums,
  SliceQuantileSums,
} from './results.store.js';
import { HOUR_MS } from '../../common/time.js';
import { addSums, ZERO_SUMS } from '../model/metric-sums.js';
import { ratioSumsFromMoments, type DailyMetricSums } from '../model/metric-sums.js';

/** In-memory ResultsStore over the shared fake tables; test/contract holds it to the Kysely store. */
export class FakeResultsStore implements ResultsStore {
  constructor(readonly data = new FakeExperimentData()) {}

  async unitValues(experimentId: string, phase: number, metric: MetricName): Promise<{ variantId: string; x: number; y: number }[]> {
    const { x: xTerms, y: yTerms } = metricDefinition(metric);
    return [...this.data.units.values()]
      .filter(({ exposure: e }) => e.experimentId === experimentId && e.phase === phase)
      .sort((a, b) => (a.exposure.unitId < b.exposure.unitId ? -1 : 1))
      .map(({ exposure: e, stats }) => ({ variantId: e.variantId, x: linearValue(stats, xTerms), y: linearValue(stats, yTerms) }));
  }

  async dailyQuantileSums(experimentId: string, phase: number, sources: readonly QuantileSource[]): Promise<DailyQuantileSums[]> {
    return [...this.data.quantileSums.values()]
      .filter((r) => r.experimentId === experimentId && r.phase === phase && sources.includes(r.source))
      .map((r) => ({ variantId: r.variantId, day: r.day, source: r.source, sums: structuredClone(r.delta) }));
  }

  async sliceQuantileSums(
    experimentId: string,
    phase: number,
    dimension: string,
    sources: readonly QuantileSource[],
  ): Promise<SliceQuantileSums[]> {
    return [...this.data.sliceQuantileSums.values()]
      .filter((r) => r.experimentId === experimentId && r.phase === phase && r.dimension === dimension && sources.includes(r.source))
      .map((r) => ({ value: r.value, variantId: r.variantId, source: r.source, sums: structuredClone(r.delta) }));
  }

  async sliceSums(experimentId: string, phase: number, dimension: string, metrics: readonly MetricName[]): Promise<SliceMetricSums[]> {
    const rows = [...this.data.sliceSums.values()].filter(
      (r) => r.experimentId === experimentId && r.phase === phase && r.dimension === dimension && metrics.includes(r.metric),
    );
    return sliceRows(rows);
  }

  async dailySums(experimentId: string, phase: number, metrics: readonly MetricName[]): Promise<DailyMetricSums[]> {
    const out: DailyMetricSums[] = [];
    for (const u of this.data.variantUnits.values()) {
      if (u.experimentId !== experimentId || u.phase !== phase) continue;
      const entry: DailyMetricSums = { variantId: u.variantId, day: u.day, sums: {} };
      for (const m of metrics) {
        const changes = this.data.variantSums.get(`${experimentId}\u0000${phase}\u0000${u.variantId}\u0000${u.day}\u0000${m}`);
        entry.sums[m] = ratioSumsFromMoments(u.units, m, changes);
      }
      out.push(entry);
    }
    return out;
  }

  async hourlySums(experimentId: string, phase: number, metrics: readonly MetricName[]): Promise<HourlyMetricSums[]> {
    if (metrics.length === 0) return [];
    const byKey = new Map<string, HourlyMetricSums>();
    for (const { exposure: e, stats } of this.data.units.values()) {
      if (e.experimentId !== experimentId || e.phase !== phase) continue;
      const hour = Math.floor(e.exposedAt / HOUR_MS);
      const key = `${e.variantId}\u0000${hour}`;
      const entry = byKey.get(key) ?? { variantId: e.variantId, hour, sums: {} };
      for (const m of metrics) {
        const { x: xTerms, y: yTerms } = metricDefinition(m);
        const [x, y] = [linearValue(stats, xTerms), linearValue(stats, yTerms)];
        entry.sums[m] = addSums(entry.sums[m] ?? ZERO_SUMS, { n: 1, sumX: x, sumY: y, sumX2: x * x, sumY2: y * y, sumXY: x * y });
      }
      byKey.set(key, entry);
    }
    return [...byKey.values()];
  }

  async metricsWithCovariates(experimentId: string, phase: number): Promise<string[]> {
    const prefix = `${experimentId}\u0000${phase}\u0000`;
    const metrics = new Set<string>();
    for (const key of this.data.covariates.keys()) if (key.startsWith(prefix)) metrics.add(key.slice(key.lastIndexOf('\u0000') + 1));
    return [...metrics];
  }

  async covariateSums(experimentId: string, phase: number, metric: MetricName): Promise<CovariateSums[]> {
    const { x: xTerms, y: yTerms } = metricDefinition(metric);
    const byVariant = new Map<string, CovariateSums>();
    for (const { exposure: e, stats } of this.data.units.values()) {
      if (e.experimentId !== experimentId || e.phase !== phase) continue;
      let s = byVariant.get(e.variantId);
      if (!s) {
        const zero = { n: 0, covered: 0, sumX: 0, sumY: 0, sumX2: 0, sumY2: 0, sumXY: 0, sumC: 0, sumC2: 0, sumXC: 0, sumYC: 0 };
        s = { variantId: e.variantId, ...zero, sumD: 0, sumD2: 0, sumXD: 0, sumYD: 0, sumCD: 0 };
        byVariant.set(e.variantId, s);
      }
      const cov = this.data.covariates.get(`${unitKey(experimentId, phase, e.unitId)}\u0000${metric}`);
      // A unit without a covariate row gets C = D = 0: it contributes nothing to θ's fit.
      const [x, y, c, d] = [linearValue(stats, xTerms), linearValue(stats, yTerms), cov?.x ?? 0, cov?.y ?? 0];
      s.n += 1;
      if (cov) s.covered += 1;
      s.sumX += x;
      s.sumY += y;
      s.sumX2 += x * x;
      s.sumY2 += y * y;
      s.sumXY += x * y;
      s.sumC += c;
      s.sumC2 += c * c;
      s.sumXC += x * c;
      s.sumYC += y * c;
      s.sumD += d;
      s.sumD2 += d * d;
      s.sumXD += x * d;
      s.sumYD += y * d;
      s.sumCD += c * d;
    }
    return [...byVariant.values()];
  }
}
