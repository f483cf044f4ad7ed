import type { ExposureRecord, ExposureStore } from './exposure.store.js';

/** In-memory ExposureStore for service unit tests. */
export class FakeExposureStore implements ExposureStore {
  readonly rows = new Map<string, ExposureRecord>();
  writes = 0;

  async recordExposures(rows: ExposureRecord[]) {
    this.writes += 1;
    const fresh: ExposureRecord[] = [];
    for (const r of rows) {
      const key = `${r.experimentId}\u0000${r.phase}\u0000${r.unitId}`;
      if (!this.rows.has(key)) {
        this.rows.set(key, structuredClone(r));
        fresh.push(r);
      }
    }
    return fresh;
  }

  async countExposures(experimentId: string, phase: number) {
    const counts: Record<string, number> = {};
    for (const r of this.rows.values())
      if (r.experimentId === experimentId && r.phase === phase) counts[r.variantId] = (counts[r.variantId] ?? 0) + 1;
    return counts;
  }
}
