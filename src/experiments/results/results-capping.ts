import { capArms, type RatioSums } from '../../stats/index.js';
import type { AnalysisSettings } from '../model/experiment.store.js';
import type { MetricName } from '../../vocabulary/index.js';
import type { ResultsStore } from './results.store.js';

export interface CappingView {
  type: string;
  value: number;
  cap: number | null;
  cappedUnits: Record<string, number>;
  reason: string | null;
}

export interface CappedMetric {
  view: CappingView;
  /** Whole-phase capped sums per variant; absent when no cap could be computed. */
  sums: Map<string, RatioSums> | null;
}

/**
 * analysis.capping for these metrics: one cap per metric from the pooled per-unit values of all arms
 * (src/stats capArms: numpy 'linear' percentile; ratio metrics capped on the unit's own ratio,
 * x' = min(x, cap·y), so numerator and denominator always refer to the same units), then each
 * variant's sums over its capped units. Reads each exposed unit once per capped metric (O(units)).
 */
export async function capMetrics(
  store: Pick<ResultsStore, 'unitValues'>,
  experimentId: string,
  phase: number,
  metrics: readonly MetricName[],
  variantIds: readonly string[],
  capping: AnalysisSettings['capping'],
): Promise<Map<MetricName, CappedMetric>> {
  const out = new Map<MetricName, CappedMetric>();
  for (const metric of metrics) {
    const spec = capping?.[metric];
    if (!spec) continue;
    const rows = await store.unitValues(experimentId, phase, metric);
    const arms = variantIds.map((id) => {
      const mine = rows.filter((r) => r.variantId === id);
      return { numerators: mine.map((r) => r.x), denominators: mine.map((r) => r.y) };
    });
    const result = capArms(arms, spec);
    const ok = result.cap !== null && result.arms.length === variantIds.length;
    out.set(metric, {
      view: {
        type: spec.type,
        value: spec.value,
        cap: result.cap,
        cappedUnits: Object.fromEntries(variantIds.map((id, i) => [id, ok ? result.arms[i]!.cappedUnits : 0])),
        reason: result.reason,
      },
      sums: ok ? new Map(variantIds.map((id, i) => [id, result.arms[i]!.sums])) : null,
    });
  }
  return out;
}
