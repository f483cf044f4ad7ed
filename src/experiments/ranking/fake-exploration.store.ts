import type { ExplorationChange, ExplorationSettings, ExplorationStore, ExploredList, LoggedList } from './exploration.store.js';

/** In-memory exploration; held to the Kysely store by test/contract/exploration.contract.test.ts. */
export class FakeExplorationStore implements ExplorationStore {
  current: ExplorationSettings | null = null;
  readonly history: ExplorationChange[] = [];
  readonly lists = new Map<string, ExploredList>();
  /** What `recentSearches` answers (the fake has no feedback): set by tests, newest first. */
  searches: LoggedList[] = [];

  async settings() {
    return this.current && structuredClone(this.current);
  }

  async save(change: ExplorationChange) {
    this.current = structuredClone(change.after);
    this.history.push(structuredClone(change));
  }

  async changes(limit: number) {
    return [...this.history]
      .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .slice(0, limit)
      .map((c) => structuredClone(c));
  }

  async record(list: ExploredList) {
    const key = JSON.stringify([list.unitId, list.queryId]);
    if (this.lists.has(key)) return false;
    this.lists.set(key, structuredClone(list));
    return true;
  }

  async countSince(since: number) {
    return [...this.lists.values()].filter((l) => l.recordedAt >= since).length;
  }

  async listSince(since: number, limit: number) {
    return [...this.lists.values()]
      .filter((l) => l.recordedAt >= since)
      .sort((a, b) => a.recordedAt - b.recordedAt || cmp(a.unitId, b.unitId) || cmp(a.queryId, b.queryId))
      .slice(0, limit)
      .map((l) => structuredClone(l));
  }

  async recentSearches(_since: number, limit: number) {
    return this.searches.slice(0, limit).map((s) => structuredClone(s));
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
