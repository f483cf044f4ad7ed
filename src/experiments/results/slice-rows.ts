import type { MetricName, MomentSums } from '../../vocabulary/index.js';
import { ratioSumsFromMoments } from '../model/metric-sums.js';
import type { SliceMetricSums } from './results.store.js';

export interface SliceSumRow extends MomentSums {
  value: string;
  variantId: string;
  metric: MetricName;
  units: number;
}

/**
 * Stored slice rows → sums per slice value and variant. A row holds the changes its units brought
 * from empty stats, so each metric starts from units × its starting values (Y = 1 per unit for a
 * proportion of sessions), as the variant-day sums do.
 */
export function sliceRows(rows: readonly SliceSumRow[]): SliceMetricSums[] {
  const out = new Map<string, SliceMetricSums>();
  for (const r of rows) {
    const key = `${r.value}\u0000${r.variantId}`;
    let entry = out.get(key);
    if (!entry) out.set(key, (entry = { value: r.value, variantId: r.variantId, units: r.units, sums: {} }));
    entry.sums[r.metric] = ratioSumsFromMoments(r.units, r.metric, r);
  }
  return [...out.values()];
}
