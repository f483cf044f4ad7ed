/**
 * The logged traffic: one search per session; the query drawn by popularity; the session's arm of
 * the running A/B test (production or treatment) serves its top 10; with probability `exploration`
 * RandPair swaps one uniformly chosen adjacent pair of that top 10 (Joachims et al. 2017); the
 * simulated user clicks.
 */
import { mulberry32 } from '../../src/random/index.js';
import { DEPTH, simulateClicks, swapAdjacent, swapChoices, type UserModel } from './users.js';
import type { Policy, World } from './world.js';

/** Same shape as the library's LoggedSearch (contract §A). */
export interface SimulatedSearch {
  queryHash: string;
  sessionId: string;
  resultIds: string[];
  clicks: boolean[];
  satisfied: boolean[];
  context?: string | null;
}

export interface LogArm {
  name: string;
  share: number;
  policy: Policy;
}

export interface LogConfig {
  sessions: number;
  users: UserModel;
  arms: readonly LogArm[];
  exploration: number;
  seed: number;
}

export interface SimulatedLog {
  searches: SimulatedSearch[];
  /** Row ids per search (parallel to searches), so the bench's own estimators skip the string lookups. */
  rows: Int32Array[];
  queryIndex: Int32Array;
  explored: number;
}

export function simulateLog(world: World, config: LogConfig): SimulatedLog {
  const uniform = mulberry32(config.seed);
  const cdf = cumulative(world.popularity);
  const armCdf = cumulative(Float64Array.from(config.arms, (a) => a.share));
  const searches: SimulatedSearch[] = new Array<SimulatedSearch>(config.sessions);
  const rows: Int32Array[] = new Array<Int32Array>(config.sessions);
  const queryIndex = new Int32Array(config.sessions);
  let explored = 0;
  const tops = config.arms.map((arm) => arm.policy.map((list) => list.slice(0, DEPTH)));
  for (let s = 0; s < config.sessions; s++) {
    const q = pick(cdf, uniform());
    const arm = pick(armCdf, uniform());
    let list = tops[arm]![q]!;
    if (config.exploration > 0 && uniform() < config.exploration) {
      const m = swapChoices(list.length);
      if (m > 0) {
        list = swapAdjacent(list, Math.floor(uniform() * m));
        explored++;
      }
    }
    const { clicks, satisfied } = simulateClicks(world, list, config.users, uniform);
    searches[s] = {
      queryHash: world.queryHashes[q]!,
      sessionId: `s${s}`,
      resultIds: list.map((r) => world.docIds[r]!),
      clicks,
      satisfied,
      context: null,
    };
    rows[s] = Int32Array.from(list);
    queryIndex[s] = q;
  }
  return { searches, rows, queryIndex, explored };
}

function cumulative(weights: ArrayLike<number>): Float64Array {
  const out = new Float64Array(weights.length);
  let total = 0;
  for (let i = 0; i < weights.length; i++) out[i] = total += weights[i]!;
  for (let i = 0; i < out.length; i++) out[i]! /= total;
  return out;
}

/** First index whose cumulative weight exceeds u (binary search). */
function pick(cdf: Float64Array, u: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid]! > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
