/**
 * One simulated experiment of each kind, through the project's own code: A/B arms accumulate the
 * per-session sums of docs/statistics.md "Metric definitions" (ctr = clicks / impressions, mrr = Σ 1/position
 * of each search's first click / searches) and are compared by the results endpoint's Welch /
 * delta-method test; interleaving runs the real team-draft, credit rules and clustered test.
 */
import { interleave } from '../../src/experiments/interleaving/index.js';
import { creditClicks, queryOutcomes } from '../../src/experiments/interleaving/index.js';
import {
  EMPTY_PAIR_SUMS,
  addPairSums,
  interleavingPairTest,
  unitPairSums,
  welchTest,
  type InterleavingPairSums,
  type RatioSums,
} from '../../src/stats/index.js';
import type { BenchRanker } from './rankers.js';
import { SHOWN, clickPositions, createRng, drawUser, searchesPerUnit, type Population, type Rng } from './users.js';

export type AbMetric = 'ctr' | 'mrr';

interface MutableSums {
  n: number;
  sumX: number;
  sumY: number;
  sumX2: number;
  sumY2: number;
  sumXY: number;
}
const emptySums = (): MutableSums => ({ n: 0, sumX: 0, sumY: 0, sumX2: 0, sumY2: 0, sumXY: 0 });
function addUnit(s: MutableSums, x: number, y: number): void {
  s.n += 1;
  s.sumX += x;
  s.sumY += y;
  s.sumX2 += x * x;
  s.sumY2 += y * y;
  s.sumXY += x * y;
}

/**
 * One A/B arm: `sessions` units served by `ranker`, each with its searches. With `commonSeed`,
 * sessions, queries and each search's click draws come from streams fixed by the seed, so two arms
 * simulated with the same seed see the same users (common random numbers): their difference is
 * then estimated far more precisely, which is what planning needs; each arm's own variance is
 * unaffected. Without it, draws come from `rng` (independent replicates).
 */
export function simulateArm(
  rng: Rng,
  population: Population,
  ranker: BenchRanker,
  sessions: number,
  commonSeed?: number,
): { ctr: RatioSums; mrr: RatioSums; searches: number } {
  const ctr = emptySums();
  const mrr = emptySums();
  const clicks: number[] = [];
  let searches = 0;
  const nQueries = ranker.queries.length;
  const users = commonSeed === undefined ? rng : createRng(commonSeed);
  for (let s = 0; s < sessions; s += 1) {
    const model = drawUser(users, population);
    const k = searchesPerUnit(users);
    let clickCount = 0;
    let impressions = 0;
    let reciprocal = 0;
    for (let i = 0; i < k; i += 1) {
      const query = ranker.queries[Math.floor(users.uniform() * nQueries)]!;
      const clickRng = commonSeed === undefined ? rng : createRng(Math.imul(s + 1, 0x9e3779b1) ^ Math.imul(i + 1, 0x85ebca77) ^ commonSeed);
      clickPositions(clickRng, model, query.labels, clicks);
      clickCount += clicks.length;
      impressions += Math.min(SHOWN, query.labels.length);
      if (clicks.length > 0) reciprocal += 1 / (clicks[0]! + 1);
    }
    searches += k;
    addUnit(ctr, clickCount, impressions);
    addUnit(mrr, reciprocal, k);
  }
  return { ctr, mrr, searches };
}

/** Labels of every result id (all rankers order the same documents). */
export function labelIndex(ranker: BenchRanker): Map<string, number> {
  const index = new Map<string, number>();
  for (const q of ranker.queries) q.resultIds.forEach((id, i) => index.set(id, q.labels[i]!));
  return index;
}

export interface InterleavingRun {
  readonly sums: InterleavingPairSums;
  /** Per-unit y_u = w_u − ½·d_u (variant = `a`), for planning. */
  readonly meanY: number;
  readonly varianceY: number;
  readonly searches: number;
}

/** `units` units whose every search is interleaved from `a` (variant) and `b` (opponent). */
export function simulateInterleaving(
  rng: Rng,
  population: Population,
  a: BenchRanker,
  b: BenchRanker,
  labels: ReadonlyMap<string, number>,
  units: number,
  seed: string,
): InterleavingRun {
  let sums = EMPTY_PAIR_SUMS;
  const clicks: number[] = [];
  const shownLabels: number[] = [];
  let sumY = 0;
  let sumY2 = 0;
  let searches = 0;
  const nQueries = a.queries.length;
  for (let u = 0; u < units; u += 1) {
    const unitId = `u${u}`;
    const model = drawUser(rng, population);
    const k = searchesPerUnit(rng);
    const counts = { wins: 0, losses: 0, ties: 0 };
    for (let i = 0; i < k; i += 1) {
      const q = Math.floor(rng.uniform() * nQueries);
      const list = interleave({
        method: 'team-draft',
        rankings: [
          { team: 'a', resultIds: a.queries[q]!.resultIds },
          { team: 'b', resultIds: b.queries[q]!.resultIds },
        ],
        key: { seed, phase: 1, unitId, queryId: `s${i}` },
      });
      shownLabels.length = 0;
      for (let r = 0; r < Math.min(SHOWN, list.results.length); r += 1) shownLabels.push(labels.get(list.results[r]!.resultId)!);
      clickPositions(rng, model, shownLabels, clicks);
      const events = clicks.map((p) => ({ resultId: list.results[p]!.resultId, userAction: 'click', receivedAt: 1 }));
      const credit = creditClicks({ ...list, recordedAt: 0 }, events);
      const outcome = queryOutcomes(list.teams, credit.clicks)[0]!.outcome;
      if (outcome === 'win') counts.wins += 1;
      else if (outcome === 'loss') counts.losses += 1;
      else counts.ties += 1;
    }
    searches += k;
    const y = counts.wins - 0.5 * (counts.wins + counts.losses);
    sumY += y;
    sumY2 += y * y;
    sums = addPairSums(sums, unitPairSums(counts));
  }
  const meanY = sumY / units;
  return { sums, meanY, varianceY: (sumY2 - units * meanY * meanY) / (units - 1), searches };
}

/** Did a replicate find a significant difference, and for which side (+1 = a/variant better)? */
export interface Verdict {
  readonly significant: boolean;
  readonly direction: 1 | -1 | 0;
}

export function abVerdict(control: RatioSums, variant: RatioSums): Verdict {
  const r = welchTest(control, variant);
  const lift = r.absoluteLift ?? 0;
  return { significant: r.significant, direction: lift > 0 ? 1 : lift < 0 ? -1 : 0 };
}

export function interleavingVerdict(sums: InterleavingPairSums): Verdict {
  const r = interleavingPairTest(sums);
  const share = r.share ?? 0.5;
  return { significant: r.significant, direction: share > 0.5 ? 1 : share < 0.5 ? -1 : 0 };
}
