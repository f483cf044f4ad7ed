import { emptyStats } from '../../vocabulary/index.js';
import { exposureDay } from '../model/exposure-day.js';
import { FakeExperimentData, unitKey } from '../model/fake-experiment-data.js';
import type { ExposureRecord, ExposureStore } from '../model/exposure.store.js';

/** In-memory ExposureStore for service unit tests; test/contract holds it to the Kysely store. */
export class FakeExposureStore implements ExposureStore {
  /** recordExposures calls (one per group commit). */
  writes = 0;

  constructor(readonly data = new FakeExperimentData()) {}

  async recordExposures(rows: ExposureRecord[]) {
    this.writes += 1;
    const fresh: ExposureRecord[] = [];
    const seen = new Set<string>();
    for (const r of rows) {
      const key = unitKey(r.experimentId, r.phase, r.unitId);
      if (seen.has(key)) continue;
      seen.add(key);
      // Covariates sent with assign are inserted if absent, for new and known units alike.
      for (const [metric, x] of Object.entries(r.covariates ?? {})) {
        const ck = `${key}\u0000${metric}`;
        if (!this.data.covariates.has(ck)) this.data.covariates.set(ck, { x, y: 1, source: 'assign' });
      }
      if (this.data.units.has(key)) continue;
      this.data.units.set(key, { exposure: structuredClone(r), stats: emptyStats() });
      const day = exposureDay(r.exposedAt);
      const vk = `${r.experimentId}\u0000${r.phase}\u0000${r.variantId}\u0000${day}`;
      const counted = this.data.variantUnits.get(vk);
      if (counted) counted.units += 1;
      else this.data.variantUnits.set(vk, { experimentId: r.experimentId, phase: r.phase, variantId: r.variantId, day, units: 1 });
      fresh.push(r);
    }
    return fresh;
  }

  async countExposures(experimentId: string, phase: number) {
    const counts: Record<string, number> = {};
    for (const v of this.data.variantUnits.values()) {
      if (v.experimentId === experimentId && v.phase === phase) counts[v.variantId] = (counts[v.variantId] ?? 0) + v.units;
    }
    return counts;
  }
}
