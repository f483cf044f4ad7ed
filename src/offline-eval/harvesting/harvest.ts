import { encodeSearches, type EncodedSearches } from '../log/encode.js';
import { percentileInterval, sessionWeights } from '../log/bootstrap.js';
import type { HarvestOptions, LoggedSearch, PositionEstimate, PropensityEstimate } from '../types.js';
import { solveLogPropensities, type RatioEdge } from './least-squares.js';

/**
 * Position bias from the service's own traffic: intervention harvesting with AllPairs (Agarwal,
 * Zaitsev, Wang, Li, Najork & Joachims, WSDM 2019). A (query, result) pair that different rankers
 * showed at positions k and k' is a natural experiment: its relevance is the same at both, so the
 * ratio of its click rates estimates p_k'/p_k under the position-based model. docs/offline-evaluation.md
 * has the estimator, the weights and why AllPairs rather than the EM variant.
 */
export function harvestPropensities(searches: readonly LoggedSearch[], options: HarvestOptions = {}): PropensityEstimate {
  const maxDepth = options.maxDepth ?? 10;
  const replicates = options.bootstrap ?? 200;
  const seed = options.seed ?? 1;
  const all = harvestGroup(searches, maxDepth, replicates, seed);
  const result: PropensityEstimate = { method: 'allpairs', positions: all.positions, harvestedPairs: all.harvestedPairs };
  if (options.byContext) {
    const groups = new Map<string, LoggedSearch[]>();
    for (const s of searches) {
      const key = s.context ?? 'unknown';
      let group = groups.get(key);
      if (group === undefined) groups.set(key, (group = []));
      group.push(s);
    }
    result.byContext = {};
    for (const [key, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      result.byContext[key] = harvestGroup(group, maxDepth, replicates, seed).positions;
    }
  }
  return result;
}

/** The reported curve: per position the point estimate, its replicates' percentile interval and support. */
function positionEstimates(point: Float64Array, draws: readonly number[][], support: Int32Array): PositionEstimate[] {
  const depth = draws.length;
  const positions: PositionEstimate[] = [{ position: 1, estimate: 1, interval: [1, 1], support: support[0] as number }];
  let last = 1;
  for (let k = 1; k < depth; k += 1) {
    const theta = point[k] as number;
    if (!Number.isFinite(theta)) {
      // Not identified: no usable pair ties this position to position 1. The estimate carries the
      // nearest shallower identified one so the array stays usable, flagged by support 0 and [0, 1].
      positions.push({ position: k + 1, estimate: last, interval: [0, 1], support: 0 });
      continue;
    }
    const estimate = Math.exp(theta);
    last = estimate;
    positions.push({
      position: k + 1,
      estimate,
      interval: percentileInterval(draws[k] as number[], estimate),
      support: support[k] as number,
    });
  }
  return positions;
}

/** Harvested pairs and their (pair, position) cells, built once. */
interface Harvest {
  depth: number;
  /** Cells of harvested pair h are cellStart[h] .. cellStart[h + 1] − 1. */
  cellStart: Int32Array;
  cellRank: Uint8Array;
  /** The impressions of harvested pairs only: session, cell, click. */
  session: Int32Array;
  cell: Int32Array;
  click: Uint8Array;
  /** Per position: harvested pairs shown there. */
  support: Int32Array;
}

function collectHarvest(log: EncodedSearches, depth: number): Harvest {
  const pairs = log.pairDoc.length;
  const cellOfRank = new Int32Array(depth);
  const stamp = new Int32Array(depth).fill(-1);
  const cellStart: number[] = [0];
  const cellRank: number[] = [];
  const support = new Int32Array(depth);
  let impressions = 0;
  const harvested: number[] = [];
  for (let p = 0; p < pairs; p += 1) {
    let distinct = 0;
    for (let i = log.pairStart[p] as number; i < (log.pairStart[p + 1] as number); i += 1) {
      const r = log.impRank[i] as number;
      if (stamp[r] !== p) {
        stamp[r] = p;
        distinct += 1;
      }
    }
    if (distinct < 2) continue;
    harvested.push(p);
    impressions += (log.pairStart[p + 1] as number) - (log.pairStart[p] as number);
  }
  const session = new Int32Array(impressions);
  const cell = new Int32Array(impressions);
  const click = new Uint8Array(impressions);
  stamp.fill(-1);
  let at = 0;
  for (const p of harvested) {
    for (let i = log.pairStart[p] as number; i < (log.pairStart[p + 1] as number); i += 1) {
      const r = log.impRank[i] as number;
      if (stamp[r] !== p) {
        stamp[r] = p;
        cellOfRank[r] = cellRank.length;
        cellRank.push(r);
        support[r] = (support[r] as number) + 1;
      }
      session[at] = log.impSession[i] as number;
      cell[at] = cellOfRank[r] as number;
      click[at] = log.impClick[i] as number;
      at += 1;
    }
    cellStart.push(cellRank.length);
  }
  return { depth, cellStart: Int32Array.from(cellStart), cellRank: Uint8Array.from(cellRank), session, cell, click, support };
}

/**
 * One replicate: per position pair (a, b), M[a][b] = Σ_d 2·n_a·c_b / (n_a + n_b) and M[b][a] the
 * same with a and b swapped, over the harvested results d shown at both. With the harmonic-mean
 * weight 2·n_a·n_b/(n_a + n_b) on each click rate, M[a][b] / M[b][a] estimates p_b / p_a and a
 * result shown mostly at one of the two positions counts as little as its rarer side allows.
 */
function replicateLogPropensities(h: Harvest, weights: Uint8Array, cellN: Float64Array, cellC: Float64Array): Float64Array {
  cellN.fill(0);
  cellC.fill(0);
  for (let i = 0; i < h.session.length; i += 1) {
    const w = weights[h.session[i] as number] as number;
    if (w === 0) continue;
    const c = h.cell[i] as number;
    cellN[c] = (cellN[c] as number) + w;
    if (h.click[i] === 1) cellC[c] = (cellC[c] as number) + w;
  }
  const D = h.depth;
  const M = new Float64Array(D * D);
  const pairs = h.cellStart.length - 1;
  for (let p = 0; p < pairs; p += 1) {
    const end = h.cellStart[p + 1] as number;
    for (let x = h.cellStart[p] as number; x < end; x += 1) {
      const nx = cellN[x] as number;
      if (nx === 0) continue;
      const rx = h.cellRank[x] as number;
      for (let y = x + 1; y < end; y += 1) {
        const ny = cellN[y] as number;
        if (ny === 0) continue;
        const ry = h.cellRank[y] as number;
        const scale = 2 / (nx + ny);
        M[rx * D + ry] = (M[rx * D + ry] as number) + scale * nx * (cellC[y] as number);
        M[ry * D + rx] = (M[ry * D + rx] as number) + scale * ny * (cellC[x] as number);
      }
    }
  }
  const edges: RatioEdge[] = [];
  for (let a = 0; a < D; a += 1) {
    for (let b = a + 1; b < D; b += 1) {
      const up = M[a * D + b] as number;
      const down = M[b * D + a] as number;
      // A pair of positions without clicks on one side says nothing about the ratio.
      if (up > 0 && down > 0) edges.push({ a, b, y: Math.log(up / down), weight: 1 / (1 / up + 1 / down) });
    }
  }
  return solveLogPropensities(D, edges);
}

function harvestGroup(
  searches: readonly LoggedSearch[],
  maxDepth: number,
  replicates: number,
  seed: number,
): { positions: PositionEstimate[]; harvestedPairs: number } {
  const log = encodeSearches(searches, maxDepth);
  const depth = Math.max(1, Math.floor(maxDepth));
  const h = collectHarvest(log, depth);
  const cellN = new Float64Array(h.cellRank.length);
  const cellC = new Float64Array(h.cellRank.length);
  const weights = new Uint8Array(log.sessions);
  const point = replicateLogPropensities(h, sessionWeights(log.sessions, 0, seed, weights), cellN, cellC);
  const draws: number[][] = Array.from({ length: depth }, () => []);
  for (let b = 1; b <= replicates; b += 1) {
    const theta = replicateLogPropensities(h, sessionWeights(log.sessions, b, seed, weights), cellN, cellC);
    for (let k = 1; k < depth; k += 1) if (Number.isFinite(theta[k])) (draws[k] as number[]).push(Math.exp(theta[k] as number));
  }
  const positions = positionEstimates(point, draws, h.support);
  return { positions, harvestedPairs: h.cellStart.length - 1 };
}

/**
 * Re-harvesting inside another bootstrap (evaluateCandidate's `propensities: { harvest }`): the
 * harvest built once over `searches`, then one examination curve per replicate from that
 * replicate's session weights, so the propensities' own sampling error enters the evaluation's
 * intervals instead of being treated as known.
 */
export interface ReplicateHarvester {
  /** Sessions of the harvest's encoding: the weights `curve` reads are indexed by these. */
  readonly sessions: number;
  /** Per search of `searches` (same order), its session index in that encoding. */
  readonly searchSession: Int32Array;
  /**
   * The curve of one replicate into `into` (0-based rank; into[0] = 1). A position the replicate
   * cannot tie to position 1 takes `fallback[k]` when given (the full-sample curve), else the
   * nearest shallower one, as harvestPropensities does; ranks past maxDepth reuse the deepest.
   */
  curve(weights: Uint8Array, into: Float64Array, fallback?: Float64Array): void;
  /**
   * What harvestPropensities reports (without byContext), from the curves drawn so far: the first
   * `curve` call is the point (all weights 1), each later one a replicate. With the same seed and
   * replicate count it equals harvestPropensities' own result, so a caller need not harvest twice.
   */
  estimate(): PropensityEstimate;
}

export function replicateHarvester(searches: readonly LoggedSearch[], maxDepth = 10): ReplicateHarvester {
  const log = encodeSearches(searches, maxDepth);
  const depth = Math.max(1, Math.floor(maxDepth));
  const h = collectHarvest(log, depth);
  const cellN = new Float64Array(h.cellRank.length);
  const cellC = new Float64Array(h.cellRank.length);
  let point: Float64Array | undefined;
  const draws: number[][] = Array.from({ length: depth }, () => []);
  return {
    sessions: log.sessions,
    searchSession: log.searchSession,
    curve(weights, into, fallback) {
      const theta = replicateLogPropensities(h, weights, cellN, cellC);
      if (point === undefined) point = Float64Array.from(theta);
      else for (let k = 1; k < depth; k += 1) if (Number.isFinite(theta[k])) (draws[k] as number[]).push(Math.exp(theta[k] as number));
      let last = 1;
      into[0] = 1;
      for (let k = 1; k < into.length; k += 1) {
        const t = k < depth ? (theta[k] as number) : Number.NaN;
        if (k < depth && Number.isFinite(t)) last = Math.exp(t);
        else if (k < depth && fallback !== undefined) last = fallback[k] as number;
        into[k] = last;
      }
    },
    estimate() {
      const positions = positionEstimates(point ?? new Float64Array(depth).fill(Number.NaN), draws, h.support);
      return { method: 'allpairs', positions, harvestedPairs: h.cellStart.length - 1 };
    },
  };
}
