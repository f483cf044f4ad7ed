import { mulberry32, shuffleInPlace } from '../../random/index.js';

/** One logged search: the results shown in logged order (position = index + 1) and which were clicked. */
export interface ClickSession {
  queryKey: string;
  docKeys: readonly string[];
  clicks: readonly boolean[];
}

/**
 * Sessions with the same query and the same shown list collapsed into one group. Exact for the
 * pairwise objectives of this folder: they are sums over sessions of terms that depend only on
 * the list and on one pair's click outcome, so the per-group counts below carry everything.
 */
export interface ClickLog {
  numRows: number;
  numFeatures: number;
  featureNames: string[];
  /** Row-major numRows × numFeatures. */
  features: Float32Array;
  /** Row offsets, length = groups + 1; a group's rows are its list in logged order. */
  groups: Int32Array;
  /** Per group: index into queryKeys (split by query, never by group). */
  groupQuery: Int32Array;
  queryKeys: string[];
  /** Per row. */
  docKeys: string[];
  /** Per row, 1-based logged position. */
  position: Int32Array;
  /** Per group: sessions that saw exactly this list. */
  sessions: Float64Array;
  /** Per row: sessions that clicked it. */
  clicks: Float64Array;
  /** Per group, a row-major k×k block (k = group size) at pairOffset[g]: sessions in which row a was clicked and row b was not. */
  clickedNotClicked: Float64Array;
  pairOffset: Int32Array;
}

/** Default depth: results below position 10 are cut from each list (rarely examined, and k² pair counts per group). */
export const DEFAULT_CLICK_DEPTH = 10;

interface GroupAcc {
  query: number;
  docs: readonly string[];
  sessions: number;
  clicks: Float64Array;
  pairs: Float64Array;
}

/**
 * Collapses sessions into groups (query + identical shown list, cut to `maxDepth`) and asks
 * `featuresOf` once per row. Groups keep first-seen order; sessions with an empty list are skipped.
 */
export function buildClickLog(
  sessions: Iterable<ClickSession>,
  featuresOf: (queryKey: string, docKey: string) => ArrayLike<number>,
  featureNames: string[],
  maxDepth = DEFAULT_CLICK_DEPTH,
): ClickLog {
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new RangeError(`maxDepth must be a positive integer, got ${maxDepth}`);
  const queryIndex = new Map<string, number>();
  const queryKeys: string[] = [];
  const byKey = new Map<string, GroupAcc>();
  const groups: GroupAcc[] = [];
  const clicked = new Int32Array(maxDepth);
  for (const s of sessions) {
    const k = Math.min(s.docKeys.length, maxDepth);
    if (k === 0) continue;
    if (s.clicks.length < k) throw new RangeError(`session of query ${s.queryKey}: ${s.clicks.length} clicks for ${k} results`);
    const docs = s.docKeys.length > k ? s.docKeys.slice(0, k) : s.docKeys;
    // U+0000 cannot appear in keys that came through JSON text, so the joined key is unambiguous.
    const key = `${s.queryKey}\u0000${docs.join('\u0000')}`;
    let g = byKey.get(key);
    if (!g) {
      let q = queryIndex.get(s.queryKey);
      if (q === undefined) {
        q = queryKeys.length;
        queryIndex.set(s.queryKey, q);
        queryKeys.push(s.queryKey);
      }
      g = { query: q, docs: [...docs], sessions: 0, clicks: new Float64Array(k), pairs: new Float64Array(k * k) };
      byKey.set(key, g);
      groups.push(g);
    }
    g.sessions++;
    let nc = 0;
    for (let i = 0; i < k; i++) if (s.clicks[i]) clicked[nc++] = i;
    // Only clicked rows start pairs: O(clicks × k) per session, most sessions have 0–1 clicks.
    for (let c = 0; c < nc; c++) {
      const a = clicked[c]!;
      g.clicks[a]!++;
      const row = a * k;
      for (let b = 0; b < k; b++) if (!s.clicks[b]) g.pairs[row + b]!++;
    }
  }
  return assemble(groups, queryKeys, featuresOf, featureNames);
}

function assemble(
  groups: GroupAcc[],
  queryKeys: string[],
  featuresOf: (queryKey: string, docKey: string) => ArrayLike<number>,
  featureNames: string[],
): ClickLog {
  const F = featureNames.length;
  let numRows = 0;
  let numPairs = 0;
  for (const g of groups) {
    numRows += g.docs.length;
    numPairs += g.docs.length * g.docs.length;
  }
  const log = emptyLog(groups.length, numRows, numPairs, F, featureNames, queryKeys);
  let row = 0;
  let pair = 0;
  groups.forEach((g, gi) => {
    const k = g.docs.length;
    log.groupQuery[gi] = g.query;
    log.sessions[gi] = g.sessions;
    log.pairOffset[gi] = pair;
    log.clickedNotClicked.set(g.pairs, pair);
    log.clicks.set(g.clicks, row);
    for (let i = 0; i < k; i++, row++) {
      const doc = g.docs[i]!;
      log.docKeys.push(doc);
      log.position[row] = i + 1;
      const x = featuresOf(queryKeys[g.query]!, doc);
      if (x.length !== F) throw new RangeError(`features of ${queryKeys[g.query]} / ${doc}: ${x.length} values for ${F} names`);
      for (let f = 0; f < F; f++) log.features[row * F + f] = x[f]!;
    }
    pair += k * k;
    log.groups[gi + 1] = row;
  });
  log.pairOffset[groups.length] = pair;
  return log;
}

function emptyLog(numGroups: number, numRows: number, numPairs: number, F: number, featureNames: string[], queryKeys: string[]): ClickLog {
  return {
    numRows,
    numFeatures: F,
    featureNames: [...featureNames],
    features: new Float32Array(numRows * F),
    groups: new Int32Array(numGroups + 1),
    groupQuery: new Int32Array(numGroups),
    queryKeys,
    docKeys: [],
    position: new Int32Array(numRows),
    sessions: new Float64Array(numGroups),
    clicks: new Float64Array(numRows),
    clickedNotClicked: new Float64Array(numPairs),
    pairOffset: new Int32Array(numGroups + 1),
  };
}

/** The groups of the given queries (indices into `log.queryKeys`, renumbered in the given order), groups in log order. */
export function subsetClickLogQueries(log: ClickLog, queryIndices: ArrayLike<number>): ClickLog {
  const newIndex = new Int32Array(log.queryKeys.length).fill(-1);
  const queryKeys: string[] = [];
  for (let i = 0; i < queryIndices.length; i++) {
    const q = queryIndices[i]!;
    if (!(q >= 0 && q < log.queryKeys.length)) throw new RangeError(`query index ${q} out of range`);
    if (newIndex[q] === -1) {
      newIndex[q] = queryKeys.length;
      queryKeys.push(log.queryKeys[q]!);
    }
  }
  const keep: number[] = [];
  let numRows = 0;
  let numPairs = 0;
  for (let g = 0; g < log.sessions.length; g++) {
    if (newIndex[log.groupQuery[g]!] === -1) continue;
    keep.push(g);
    numRows += log.groups[g + 1]! - log.groups[g]!;
    numPairs += log.pairOffset[g + 1]! - log.pairOffset[g]!;
  }
  const F = log.numFeatures;
  const out = emptyLog(keep.length, numRows, numPairs, F, log.featureNames, queryKeys);
  let row = 0;
  let pair = 0;
  keep.forEach((g, gi) => {
    const a = log.groups[g]!;
    const b = log.groups[g + 1]!;
    out.groupQuery[gi] = newIndex[log.groupQuery[g]!]!;
    out.sessions[gi] = log.sessions[g]!;
    out.pairOffset[gi] = pair;
    out.clickedNotClicked.set(log.clickedNotClicked.subarray(log.pairOffset[g]!, log.pairOffset[g + 1]!), pair);
    pair += log.pairOffset[g + 1]! - log.pairOffset[g]!;
    out.features.set(log.features.subarray(a * F, b * F), row * F);
    out.position.set(log.position.subarray(a, b), row);
    out.clicks.set(log.clicks.subarray(a, b), row);
    for (let r = a; r < b; r++) out.docKeys.push(log.docKeys[r]!);
    row += b - a;
    out.groups[gi + 1] = row;
  });
  out.pairOffset[keep.length] = pair;
  return out;
}

/** Seeded split by query (as `splitForValidation`): `fraction` of the queries, at least one and not all, go to `valid`. */
export function splitClickLogByQuery(log: ClickLog, fraction: number, seed: number): { train: ClickLog; valid: ClickLog } {
  if (!(fraction > 0 && fraction < 1)) throw new RangeError(`fraction must be in (0, 1), got ${fraction}`);
  const Q = log.queryKeys.length;
  if (Q < 2) throw new RangeError(`a split by query needs at least 2 queries, the log has ${Q}`);
  const order = shuffleInPlace(
    Int32Array.from({ length: Q }, (_, i) => i),
    mulberry32(seed ^ 0x5eed),
  );
  const nValid = Math.max(1, Math.min(Q - 1, Math.round(Q * fraction)));
  return {
    train: subsetClickLogQueries(log, order.slice(nValid).sort()),
    valid: subsetClickLogQueries(log, order.slice(0, nValid).sort()),
  };
}
