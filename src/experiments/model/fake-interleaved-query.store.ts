import type { InterleavedQueryRecord, InterleavedQueryStore } from './interleaved-query.store.js';

const key = (r: Pick<InterleavedQueryRecord, 'experimentId' | 'phase' | 'unitId' | 'queryId'>) =>
  JSON.stringify([r.experimentId, r.phase, r.unitId, r.queryId]);

/** In-memory lists; held to the Kysely store by test/contract/interleaved-query.contract.test.ts. */
export class FakeInterleavedQueryStore implements InterleavedQueryStore {
  readonly rows = new Map<string, InterleavedQueryRecord>();

  async recordMany(rows: readonly InterleavedQueryRecord[]) {
    for (const row of rows) if (!this.rows.has(key(row))) this.rows.set(key(row), structuredClone(row));
  }

  async listForPhase(experimentId: string, phase: number) {
    return [...this.rows.values()]
      .filter((r) => r.experimentId === experimentId && r.phase === phase)
      .sort((a, b) => (a.unitId < b.unitId ? -1 : a.unitId > b.unitId ? 1 : a.queryId < b.queryId ? -1 : a.queryId > b.queryId ? 1 : 0))
      .map((r) => structuredClone(r));
  }
}
