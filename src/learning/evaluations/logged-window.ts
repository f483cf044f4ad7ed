import { isClick, isImpression, isSatisfiedClick } from '../../vocabulary/index.js';
import type { WindowRow } from './evaluation.store.js';
import type { LoggedSearch } from '../../offline-eval/index.js';
import { clientFeatures } from '../model/feature-rows.js';

interface OpenSearch {
  queryHash: string | null;
  sessionId: string;
  context: string | null;
  hasImpressions: boolean;
  shown: Map<number, string>;
  clicked: Set<string>;
  satisfied: Set<string>;
}

/** What a query's logs say about its results: every result shown, and the latest client features of each. */
export interface LoggedQuery {
  /** Union of the results shown for the query in the window, by best logged position, then first seen. */
  results: string[];
  features: Map<string, Record<string, number>>;
  /** The list shown most often (ties: the first seen): the "original order" of a cleared alias. */
  modalList: string[];
}

export interface LoggedWindow {
  searches: LoggedSearch[];
  queries: Map<string, LoggedQuery>;
  /** Searches without impressions, without a queryHash or without position 1: not usable offline. */
  dropped: number;
}

/**
 * Feedback items → the library's LoggedSearch, one per queryId (as training's sessions.ts groups
 * them). Only searches with impressions count: the shown list is ranks 1..k down to the first rank
 * nobody logged, so the list is exactly what the user saw (click-only searches, which training
 * completes by the cascade assumption, would put guessed lists into an estimate of examination).
 * Rows of one search may arrive in different pages: add every page, then finish once.
 */
export class WindowAccumulator {
  private readonly open = new Map<string, OpenSearch>();
  private readonly features = new Map<string, Map<string, { at: number; values: Record<string, number> }>>();

  /** `withFeatures`: keep the client features (a model will score the results); parsing them is most of the reading's cost. */
  constructor(
    private readonly maxDepth: number,
    private readonly withFeatures = true,
  ) {}

  get searchesSeen(): number {
    return this.open.size;
  }

  add(row: WindowRow): void {
    let s = this.open.get(row.queryId);
    if (!s) {
      s = {
        queryHash: null,
        sessionId: row.sessionId,
        context: null,
        hasImpressions: false,
        shown: new Map(),
        clicked: new Set(),
        satisfied: new Set(),
      };
      this.open.set(row.queryId, s);
    }
    s.queryHash ??= row.queryHash;
    s.context ??= row.deviceType;
    if (isImpression(row.action)) s.hasImpressions = true;
    if (row.resultId === null) return;
    if (row.position !== null && row.position >= 1 && row.position <= this.maxDepth && !s.shown.has(row.position))
      s.shown.set(row.position, row.resultId);
    if (isClick(row.action)) s.clicked.add(row.resultId);
    if (isSatisfiedClick(row.action, row.dwellTime)) s.satisfied.add(row.resultId);
    const f = row.queryHash === null || !this.withFeatures ? undefined : clientFeatures(row.extra);
    if (f && row.queryHash !== null) {
      let perQuery = this.features.get(row.queryHash);
      if (!perQuery) this.features.set(row.queryHash, (perQuery = new Map()));
      const prior = perQuery.get(row.resultId);
      // The latest features win: what the client sent last is what a ranker would be sent now.
      if (!prior || row.eventTime >= prior.at) perQuery.set(row.resultId, { at: row.eventTime, values: f });
    }
  }

  finish(): LoggedWindow {
    const searches: LoggedSearch[] = [];
    const best = new Map<string, Map<string, number>>();
    const lists = new Map<string, Map<string, { list: string[]; n: number }>>();
    let dropped = 0;
    for (const s of this.open.values()) {
      const resultIds: string[] = [];
      for (let r = 1; r <= this.maxDepth && s.shown.has(r); r += 1) resultIds.push(s.shown.get(r) as string);
      if (!s.hasImpressions || s.queryHash === null || resultIds.length === 0) {
        dropped += 1;
        continue;
      }
      searches.push({
        queryHash: s.queryHash,
        sessionId: s.sessionId,
        resultIds,
        clicks: resultIds.map((id) => s.clicked.has(id)),
        satisfied: resultIds.map((id) => s.satisfied.has(id)),
        context: s.context,
      });
      let positions = best.get(s.queryHash);
      if (!positions) best.set(s.queryHash, (positions = new Map()));
      resultIds.forEach((id, i) => positions.set(id, Math.min(positions.get(id) ?? Infinity, i + 1)));
      let seen = lists.get(s.queryHash);
      if (!seen) lists.set(s.queryHash, (seen = new Map()));
      const key = resultIds.join('\u0000');
      const entry = seen.get(key);
      if (entry) entry.n += 1;
      else seen.set(key, { list: resultIds, n: 1 });
    }
    this.open.clear();
    const queries = new Map<string, LoggedQuery>();
    for (const [queryHash, positions] of best) {
      // Map iteration keeps first-seen order, so a stable sort breaks ties by it.
      const results = [...positions.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);
      let modal: { list: string[]; n: number } = { list: [], n: 0 };
      for (const entry of lists.get(queryHash)?.values() ?? []) if (entry.n > modal.n) modal = entry;
      const features = new Map(
        [...(this.features.get(queryHash) ?? new Map<string, { values: Record<string, number> }>())].map(([id, f]) => [id, f.values]),
      );
      queries.set(queryHash, { results, features, modalList: modal.list });
    }
    return { searches, queries, dropped };
  }
}
