/**
 * The simulated click log: each session draws a query by Zipf popularity, is shown the logging
 * ranker's top 10 (in 5 % of sessions one uniformly chosen adjacent pair swapped, RandPair-style,
 * so the same result is seen at neighbouring positions and propensities can be harvested), and
 * clicks by a PBM or DBN user (bench/offline-eval/users.ts). Stored compactly so 1 000 000 sessions fit.
 */
import { simulateClicks, swapAdjacent, swapChoices, type UserModel } from '../offline-eval/users.js';
import { mulberry32 } from '../../src/random/index.js';
import type { Logger, World } from './world.js';

export const DEPTH = 10;
export const SWAP_RATE = 0.05;
/** DBN users (the misspecified case): continue after a non-satisfying result with γ = 0.9. */
export const DBN_GAMMA = 0.9;

export type Users = { kind: 'pbm'; eta: number } | { kind: 'dbn'; gamma: number };

export function describeUsers(u: Users): string {
  return u.kind === 'pbm' ? `PBM η=${u.eta}` : `DBN γ=${u.gamma}`;
}

export interface SimLog {
  n: number;
  query: Int32Array;
  /** n × DEPTH rows of the sample, −1 past the list's end. */
  shown: Int32Array;
  /** Bit i set: position i + 1 clicked. */
  clicks: Uint16Array;
  swapped: number;
  /** Sessions per query. */
  perQuery: Int32Array;
}

/** PBM's examination curve, position 1 first (the "true propensities"); null for DBN, which has none. */
export function truePropensities(u: Users): number[] | null {
  return u.kind === 'pbm' ? Array.from({ length: DEPTH }, (_, i) => (1 / (i + 1)) ** u.eta) : null;
}

export function simulateLog(world: World, logger: Logger, users: Users, n: number, seed: number): SimLog {
  const uniform = mulberry32(seed * 1_000_003 + 17);
  const cdf = new Float64Array(world.popularity.length);
  let acc = 0;
  world.popularity.forEach((p, q) => (cdf[q] = acc += p));
  const query = new Int32Array(n);
  const shown = new Int32Array(n * DEPTH).fill(-1);
  const clicks = new Uint16Array(n);
  const perQuery = new Int32Array(world.queries.length);
  const model: UserModel = users;
  let swapped = 0;
  for (let s = 0; s < n; s++) {
    const u = uniform() * acc;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! >= u) hi = mid;
      else lo = mid + 1;
    }
    const q = lo;
    query[s] = q;
    perQuery[q]! += 1;
    let list = logger.ranking[q]!.slice(0, DEPTH);
    const m = swapChoices(list.length);
    if (m > 0 && uniform() < SWAP_RATE) {
      list = swapAdjacent(list, Math.floor(uniform() * m));
      swapped += 1;
    }
    const c = simulateClicks(world, list, model, uniform).clicks;
    let mask = 0;
    list.forEach((r, i) => {
      shown[s * DEPTH + i] = r;
      if (c[i]) mask |= 1 << i;
    });
    clicks[s] = mask;
  }
  return { n, query, shown, clicks, swapped, perQuery };
}

/** Visit each session's shown list: rows, and clicked flags. */
export function forEachSession(log: SimLog, visit: (s: number, q: number, rows: number[], clicked: boolean[]) => void): void {
  for (let s = 0; s < log.n; s++) {
    const rows: number[] = [];
    const clicked: boolean[] = [];
    for (let i = 0; i < DEPTH; i++) {
      const r = log.shown[s * DEPTH + i]!;
      if (r < 0) break;
      rows.push(r);
      clicked.push((log.clicks[s]! & (1 << i)) !== 0);
    }
    visit(s, log.query[s]!, rows, clicked);
  }
}

/** (query, row, position) collapsed: impressions and clicks of each, for the pointwise reference. */
export interface Collapsed {
  query: number[];
  row: number[];
  position: number[];
  impressions: number[];
  clicks: number[];
}

export function collapse(log: SimLog): Collapsed {
  const index = new Map<number, number>();
  const out: Collapsed = { query: [], row: [], position: [], impressions: [], clicks: [] };
  forEachSession(log, (_, q, rows, clicked) => {
    rows.forEach((r, i) => {
      const key = r * 16 + i;
      let j = index.get(key);
      if (j === undefined) {
        j = out.row.length;
        index.set(key, j);
        out.query.push(q);
        out.row.push(r);
        out.position.push(i + 1);
        out.impressions.push(0);
        out.clicks.push(0);
      }
      out.impressions[j]! += 1;
      if (clicked[i]) out.clicks[j]! += 1;
    });
  });
  return out;
}
