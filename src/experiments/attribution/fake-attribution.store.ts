import { MOMENT_SUM_KEYS, UNIT_STAT_COLUMNS } from '../../vocabulary/index.js';
import { addGridDelta } from '../../stats/index.js';
import { isSliceDimension } from '../model/slice-dimensions.js';
import { FakeExperimentData, unitKey } from '../model/fake-experiment-data.js';
import { searchKey, type ExposureWindow } from './attribution.js';
import type { AttributionStore, Planner } from './attribution.store.js';

/** In-memory AttributionStore over the shared fake tables; test/contract holds it to the Kysely store. */
export class FakeAttributionStore implements AttributionStore {
  constructor(readonly data = new FakeExperimentData()) {}

  async attributeNext(limit: number, plan: Planner): Promise<number | null> {
    const items = this.data
      .feedback()
      .filter((i) => !this.data.attributed.has(i.id))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit);
    if (items.length === 0) return 0;
    const sessions = new Set(items.map((i) => i.sessionId));
    const oldest = Math.min(...items.map((i) => i.receivedAt));
    const exposures = new Map<string, ExposureWindow[]>();
    for (const p of this.data.phases.filter((ph) => ph.endedAt === null || ph.endedAt > oldest)) {
      for (const { exposure: x, stats, quantilePositions } of this.data.units.values()) {
        if (x.experimentId !== p.experimentId || x.phase !== p.phase || !sessions.has(x.unitId)) continue;
        const list = exposures.get(x.unitId) ?? [];
        const dimensions = (p.configuration?.analysis?.dimensions ?? ['deviceType', 'searchType']).filter(isSliceDimension);
        const sliceValues = this.data.unitSlices.get(unitKey(x.experimentId, x.phase, x.unitId)) ?? null;
        list.push({
          ...x,
          phaseEndedAt: p.endedAt,
          stats: { ...stats },
          dimensions,
          sliceValues,
          attributes: x.sliceAttributes ?? null,
          quantilePositions: quantilePositions ?? null,
        });
        exposures.set(x.unitId, list);
      }
    }
    const queries = new Set(items.filter((i) => exposures.has(i.sessionId)).map((i) => i.queryId));
    const known = new Map<string, number>();
    for (const windows of exposures.values()) {
      for (const w of windows) {
        for (const q of queries) {
          const k = searchKey(w.experimentId, w.phase, w.unitId, q);
          const hasClick = this.data.searches.get(k);
          if (hasClick !== undefined) known.set(k, hasClick);
        }
      }
    }
    const { units, searches, variantSums, unitSlices, sliceSums, unitQuantiles, quantileSums, sliceQuantileSums, querySums } = plan(
      items,
      exposures,
      known,
    );
    for (const u of unitQuantiles)
      this.data.units.get(unitKey(u.experimentId, u.phase, u.unitId))!.quantilePositions = structuredClone(u.positions);
    for (const v of quantileSums) {
      const key = [v.experimentId, v.phase, v.variantId, v.day, v.source].join('\u0000');
      const acc = this.data.quantileSums.get(key);
      if (!acc) this.data.quantileSums.set(key, structuredClone(v));
      else acc.delta = addGridDelta(acc.delta, v.delta);
    }
    for (const v of sliceQuantileSums) {
      const key = [v.experimentId, v.phase, v.dimension, v.value, v.variantId, v.source].join('\u0000');
      const acc = this.data.sliceQuantileSums.get(key);
      if (!acc) this.data.sliceQuantileSums.set(key, structuredClone(v));
      else acc.delta = addGridDelta(acc.delta, v.delta);
    }
    for (const u of unitSlices) this.data.unitSlices.set(unitKey(u.experimentId, u.phase, u.unitId), { ...u.values });
    for (const v of sliceSums) {
      const key = [v.experimentId, v.phase, v.dimension, v.value, v.variantId, v.metric].join('\u0000');
      const acc = this.data.sliceSums.get(key);
      if (!acc) this.data.sliceSums.set(key, { ...v });
      else for (const k of ['units', ...MOMENT_SUM_KEYS] as const) acc[k] += v[k];
    }
    for (const u of units) {
      const row = this.data.units.get(unitKey(u.experimentId, u.phase, u.unitId))!;
      for (const c of UNIT_STAT_COLUMNS) row.stats[c] += u.stats[c];
    }
    for (const s of searches) this.data.searches.set(searchKey(s.experimentId, s.phase, s.unitId, s.queryId), s.hasClick);
    for (const v of variantSums) {
      const key = `${v.experimentId}\u0000${v.phase}\u0000${v.variantId}\u0000${v.day}\u0000${v.metric}`;
      const acc = this.data.variantSums.get(key);
      if (!acc) this.data.variantSums.set(key, { ...v });
      else for (const k of MOMENT_SUM_KEYS) acc[k] += v[k];
    }
    for (const q of querySums) {
      const key = [q.experimentId, q.phase, q.variantId, q.queryHash].join('\u0000');
      const acc = this.data.querySums.get(key);
      if (!acc) this.data.querySums.set(key, { ...q });
      else {
        acc.searches += q.searches;
        acc.clickedSearches += q.clickedSearches;
        acc.lastSeen = Math.max(acc.lastSeen, q.lastSeen);
      }
    }
    for (const i of items) this.data.attributed.add(i.id);
    return items.length;
  }
}
