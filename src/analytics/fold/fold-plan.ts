import { isClick, isConversion, isImpression } from '../../vocabulary/index.js';
import {
  COUNTERS,
  DIMENSIONS,
  emptyCounters,
  histogramColumn,
  hourOf,
  type AnalyticsItem,
  type Counter,
  type Counters,
  type Dimension,
} from '../model/counters.js';

/**
 * The fold plan, the pure half of search analytics (store/fold.kysely-store.ts runs it): folds a
 * batch of feedback items into additive hourly counters. Item counts (impressions, clicks, conversions) land in the hour of the item's own
 * `timestamp`, so a late event lands in its own hour. Search counts (searches, abandonment, first
 * click, zero results) and session counts depend on every item of a search or a session, which can
 * arrive over several batches: each such entity keeps a small state, and a batch retracts the
 * entity's old contribution and adds its new one. Every merge below is order-independent (earliest
 * by (timestamp, id) wins), so the counters equal a from-scratch fold whatever the batching.
 */

type Attr = 'h' | 'd' | 's' | 'l' | 'g' | 'r';
/** [value, timestamp, item id] of the earliest item that carried the field. */
type Sourced = [string | number, number, string];

/** What analytics remembers of a search, a session or a (session, query) pair. */
export interface EntityState {
  /** earliest timestamp and its item id */
  t: number;
  i: string;
  a: Partial<Record<Attr, Sourced>>;
  /** searches: the first click [timestamp, id, position or null] */
  c?: [number, string, number | null] | null;
}

export type EntityKind = 'search' | 'session' | 'pair';

export function entityKeys(item: AnalyticsItem): { kind: EntityKind; key: string }[] {
  const keys: { kind: EntityKind; key: string }[] = [
    { kind: 'search', key: `q:${item.queryId}` },
    { kind: 'session', key: `s:${item.sessionId}` },
  ];
  if (item.queryHash !== null) keys.push({ kind: 'pair', key: `p:${item.sessionId}\n${item.queryHash}` });
  return keys;
}

const earlier = (t1: number, id1: string, t2: number, id2: string) => t1 < t2 || (t1 === t2 && id1 < id2);

function itemAttrs(item: AnalyticsItem): [Attr, string | number | null][] {
  return [
    ['h', item.queryHash],
    ['d', item.deviceType],
    ['s', item.searchType],
    ['l', item.language],
    ['g', item.category],
    ['r', item.resultCount],
  ];
}

export function mergeItem(state: EntityState | null, kind: EntityKind, item: AnalyticsItem): EntityState {
  const s: EntityState = state
    ? { t: state.t, i: state.i, a: { ...state.a }, c: state.c ?? null }
    : { t: item.eventTime, i: item.id, a: {}, c: null };
  if (earlier(item.eventTime, item.id, s.t, s.i)) {
    s.t = item.eventTime;
    s.i = item.id;
  }
  for (const [attr, value] of itemAttrs(item)) {
    if (value === null) continue;
    const known = s.a[attr];
    if (!known || earlier(item.eventTime, item.id, known[1], known[2])) s.a[attr] = [value, item.eventTime, item.id];
  }
  if (kind === 'search' && isClick(item.userAction)) {
    if (!s.c || earlier(item.eventTime, item.id, s.c[0], s.c[1])) s.c = [item.eventTime, item.id, item.position];
  }
  if (kind !== 'search') delete s.c;
  return s;
}

/** A row of analytics_total_hours (queryHash null) or analytics_query_hours. */
export interface RowKey {
  queryHash: string | null;
  dimension: Dimension | '';
  value: string;
  hour: number;
}

export const rowKeyString = (k: RowKey): string =>
  `${k.queryHash ?? ''}\u0001${k.queryHash === null ? 't' : 'q'}\u0001${k.dimension}\u0001${k.value}\u0001${k.hour}`;

export interface RowDelta {
  key: RowKey;
  counters: Counters;
}

export interface ResultDelta {
  /** '' and '' for all traffic, else the item's own value of the dimension */
  dimension: Dimension | '';
  value: string;
  queryHash: string;
  hour: number;
  resultId: string;
  position: number;
  impressions: number;
  clicks: number;
}

export interface FoldPlan {
  rows: RowDelta[];
  results: ResultDelta[];
  /** new state per entity key */
  states: Map<string, EntityState>;
  /** earliest-id display text per query hash seen in the batch */
  texts: Map<string, { text: string; sourceId: string }>;
}

class RowAccumulator {
  readonly rows = new Map<string, RowDelta>();
  /**
   * The rows one call's arguments (hour, query, dimension values, targets) land in: every item of
   * a search shares them, so the keys are built once per search rather than once per item.
   */
  private readonly targetRows = new Map<string, RowDelta[]>();

  add(
    hour: number,
    queryHash: string | null,
    dims: Partial<Record<Dimension, string>>,
    add: Partial<Counters>,
    sign: number,
    targets: 'both' | 'total' | 'query',
  ): void {
    const memo = JSON.stringify([hour, queryHash, targets, dims.deviceType, dims.searchType, dims.language, dims.category]);
    let rows = this.targetRows.get(memo);
    if (!rows) {
      rows = [];
      const hashes: (string | null)[] = [];
      if (targets !== 'query') hashes.push(null);
      if (targets !== 'total' && queryHash !== null) hashes.push(queryHash);
      const slices: [Dimension | '', string][] = [['', '']];
      for (const d of DIMENSIONS) if (dims[d] !== undefined) slices.push([d, dims[d]]);
      for (const h of hashes) {
        for (const [dimension, value] of slices) {
          const key: RowKey = { queryHash: h, dimension, value, hour };
          const k = rowKeyString(key);
          let row = this.rows.get(k);
          if (!row) {
            row = { key, counters: emptyCounters() };
            this.rows.set(k, row);
          }
          rows.push(row);
        }
      }
      this.targetRows.set(memo, rows);
    }
    for (const c in add) {
      const v = sign * add[c as Counter]!;
      for (const row of rows) row.counters[c as Counter] += v;
    }
  }
}

function stateDims(s: EntityState): Partial<Record<Dimension, string>> {
  const out: Partial<Record<Dimension, string>> = {};
  const pairs: [Dimension, Attr][] = [
    ['deviceType', 'd'],
    ['searchType', 's'],
    ['language', 'l'],
    ['category', 'g'],
  ];
  for (const [d, a] of pairs) if (s.a[a]) out[d] = String(s.a[a][0]);
  return out;
}

function contribute(acc: RowAccumulator, kind: EntityKind, key: string, s: EntityState, sign: number): void {
  const hour = hourOf(s.t);
  const dims = stateDims(s);
  if (kind === 'session') return acc.add(hour, null, dims, { sessions: 1 }, sign, 'total');
  const hash = s.a.h ? String(s.a.h[0]) : null;
  if (kind === 'pair') return acc.add(hour, hash ?? key.slice(key.indexOf('\n') + 1), dims, { sessions: 1 }, sign, 'query');
  const add: Partial<Counters> = { searches: 1 };
  const click = s.c;
  if (!click) add.abandoned = 1;
  else if (click[2] !== null && click[2] >= 1) {
    add.first_clicks = 1;
    add.first_click_position_sum = click[2];
    add.first_click_rr_sum = 1 / click[2];
    add[histogramColumn(click[2])] = 1;
  }
  if (s.a.r) {
    add.result_count_searches = 1;
    if (s.a.r[0] === 0) add.zero_result_searches = 1;
  }
  acc.add(hour, hash, dims, add, sign, 'both');
}

const sameContribution = (a: EntityState, b: EntityState): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Folds a batch into row deltas and new entity states. `known` holds the stored state of every
 * entity the batch touches (absent when new).
 */
export function planFold(items: readonly AnalyticsItem[], known: ReadonlyMap<string, EntityState>): FoldPlan {
  const acc = new RowAccumulator();
  const states = new Map<string, EntityState>();
  const kinds = new Map<string, EntityKind>();
  const texts = new Map<string, { text: string; sourceId: string }>();
  const results = new Map<string, ResultDelta>();
  for (const item of items) {
    for (const { kind, key } of entityKeys(item)) {
      kinds.set(key, kind);
      states.set(key, mergeItem(states.get(key) ?? known.get(key) ?? null, kind, item));
    }
    const hour = hourOf(item.eventTime);
    const dims: Partial<Record<Dimension, string>> = {};
    for (const d of DIMENSIONS) if (item[d] !== null) dims[d] = item[d];
    const add: Partial<Counters> = {};
    if (isImpression(item.userAction)) add.impressions = 1;
    if (isClick(item.userAction)) add.clicks = 1;
    if (isConversion(item.userAction)) add.conversions = 1;
    if (Object.keys(add).length > 0) acc.add(hour, item.queryHash, dims, add, 1, 'both');
    if (item.queryHash !== null && item.resultId !== null && (add.impressions || add.clicks)) {
      const position = item.position ?? 0;
      const slices: [Dimension | '', string][] = [['', '']];
      for (const d of DIMENSIONS) if (dims[d] !== undefined) slices.push([d, dims[d]]);
      for (const [dimension, value] of slices) {
        const k = `${dimension}\u0001${value}\u0001${item.queryHash}\u0001${hour}\u0001${item.resultId}\u0001${position}`;
        const r = results.get(k) ?? {
          dimension,
          value,
          queryHash: item.queryHash,
          hour,
          resultId: item.resultId,
          position,
          impressions: 0,
          clicks: 0,
        };
        r.impressions += add.impressions ?? 0;
        r.clicks += add.clicks ?? 0;
        results.set(k, r);
      }
    }
    if (item.queryHash !== null && item.queryText !== null) {
      const t = texts.get(item.queryHash);
      if (!t || item.id < t.sourceId) texts.set(item.queryHash, { text: item.queryText, sourceId: item.id });
    }
  }
  for (const [key, next] of states) {
    const kind = kinds.get(key)!;
    const old = known.get(key);
    if (old && sameContribution(old, next)) {
      states.delete(key);
      continue;
    }
    if (old) contribute(acc, kind, key, old, -1);
    contribute(acc, kind, key, next, 1);
  }
  const rows = [...acc.rows.values()].filter((r) => COUNTERS.some((c) => r.counters[c] !== 0));
  return { rows, results: [...results.values()], states, texts };
}
