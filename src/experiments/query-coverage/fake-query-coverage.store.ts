import { FakeExperimentData } from '../model/fake-experiment-data.js';
import type { CoverageKey, PhaseQueryCoverage, QueryCoverageStore } from './query-coverage.store.js';

const before = (a: CoverageKey, b: CoverageKey) =>
  a.lastSeen !== b.lastSeen
    ? a.lastSeen > b.lastSeen
    : a.experimentId !== b.experimentId
      ? a.experimentId > b.experimentId
      : a.phase > b.phase;

/** In-memory QueryCoverageStore over the shared fake tables; test/contract holds it to the Kysely store. */
export class FakeQueryCoverageStore implements QueryCoverageStore {
  constructor(readonly data = new FakeExperimentData()) {}

  async phasesCovering(queryHash: string, after: CoverageKey | undefined, limit: number): Promise<PhaseQueryCoverage[]> {
    const phases = new Map<string, PhaseQueryCoverage>();
    const rows = [...this.data.querySums.values()].filter((r) => r.queryHash === queryHash);
    for (const r of rows.sort((a, b) => (a.variantId < b.variantId ? -1 : 1))) {
      const e = this.data.experiments.get(r.experimentId)!;
      const key = `${r.experimentId}\u0000${r.phase}`;
      let phase = phases.get(key);
      if (!phase) {
        phase = {
          experimentId: e.id,
          name: e.name,
          status: e.status,
          type: e.configuration.type ?? 'ab',
          variantOrder: e.configuration.variants.map((v) => v.id),
          phase: r.phase,
          lastSeen: r.lastSeen,
          variants: [],
        };
        phases.set(key, phase);
      }
      phase.lastSeen = Math.max(phase.lastSeen, r.lastSeen);
      phase.variants.push({ variantId: r.variantId, searches: r.searches, clickedSearches: r.clickedSearches, lastSeen: r.lastSeen });
    }
    return [...phases.values()]
      .filter((p) => !after || before(after, p))
      .sort((a, b) => (before(a, b) ? -1 : 1))
      .slice(0, limit);
  }
}
