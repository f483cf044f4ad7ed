/**
 * The simulated users and the exact online value of a ranking under them: expectations computed
 * from the user model in closed form, never another simulation.
 *
 * PBM: position k is examined with probability (1/k)^η, a result is clicked when examined and
 * attractive, clicks are independent: P(first click at k) = a_k p_k Π_{j<k}(1 − a_j p_j).
 * DBN (Chapelle & Zhang 2009): the user reads from the top; clicks an examined result with
 * probability a_k; a click satisfies with probability s_k and ends the search; otherwise the user
 * goes on with probability γ.
 */
import type { World } from './world.js';

export const METRICS = ['mrr', 'clicks_per_search', 'ctr@10', 'abandonment_rate'] as const;
export type Metric = (typeof METRICS)[number];
export type MetricValues = Record<Metric, number>;

export type UserModel = { kind: 'pbm'; eta: number } | { kind: 'dbn'; gamma: number };

export const DEPTH = 10;

export function describeUsers(users: UserModel): string {
  return users.kind === 'pbm' ? `PBM, examination (1/k)^${users.eta}` : `DBN, continuation γ = ${users.gamma}`;
}

/** PBM examination of position k (1-based). */
export function examination(users: { eta: number }, k: number): number {
  return (1 / k) ** users.eta;
}

/** Exact expected metric values of one shown list (rows, rank 1 first, at most DEPTH). */
export function listValue(world: World, list: readonly number[], users: UserModel): MetricValues {
  let noClickYet = 1; // P(no click above k) — and, under DBN, P(examined k and no click above)
  let examined = 1; // DBN: P(examine k)
  let clicks = 0;
  let mrr = 0;
  let anyClick = 0;
  const n = Math.min(list.length, DEPTH);
  for (let i = 0; i < n; i++) {
    const k = i + 1;
    const a = world.attract[list[i]!]!;
    if (users.kind === 'pbm') {
      const c = a * examination(users, k);
      clicks += c;
      anyClick += noClickYet * c;
      mrr += (noClickYet * c) / k;
      noClickYet *= 1 - c;
    } else {
      clicks += examined * a;
      anyClick += noClickYet * a;
      mrr += (noClickYet * a) / k;
      noClickYet *= (1 - a) * users.gamma;
      examined *= users.gamma * (1 - a * world.satisfy[list[i]!]!);
    }
  }
  return { mrr, clicks_per_search: clicks, 'ctr@10': clicks / DEPTH, abandonment_rate: 1 - anyClick };
}

/** Swap positions i and i+1 (0-based) of a list: RandPair's intervention (Joachims et al. 2017). */
export function swapAdjacent(list: readonly number[], i: number): number[] {
  const out = [...list];
  [out[i], out[i + 1]] = [out[i + 1]!, out[i]!];
  return out;
}

/** How many adjacent pairs RandPair may swap in a list of this length (pairs inside the top DEPTH). */
export function swapChoices(length: number): number {
  return Math.max(0, Math.min(length, DEPTH) - 1);
}

/**
 * Exact value of a stochastic logging policy: a mixture of shown lists per query (each list's top DEPTH),
 * and with probability `exploration` one uniformly chosen adjacent pair of the shown list swapped.
 */
export function policyValue(
  world: World,
  arms: readonly { share: number; policy: readonly (readonly number[])[] }[],
  users: UserModel,
  exploration = 0,
): MetricValues {
  const out = zero();
  world.queries.forEach((_, q) => {
    const w = world.popularity[q]!;
    for (const arm of arms) {
      const list = arm.policy[q]!.slice(0, DEPTH);
      add(out, listValue(world, list, users), w * arm.share * (1 - exploration));
      const m = swapChoices(list.length);
      if (exploration > 0) {
        if (m === 0) add(out, listValue(world, list, users), w * arm.share * exploration);
        for (let i = 0; i < m; i++) add(out, listValue(world, swapAdjacent(list, i), users), (w * arm.share * exploration) / m);
      }
    }
  });
  return out;
}

export function zero(): MetricValues {
  return { mrr: 0, clicks_per_search: 0, 'ctr@10': 0, abandonment_rate: 0 };
}

function add(into: MetricValues, v: MetricValues, w: number): void {
  for (const m of METRICS) into[m] += w * v[m];
}

/**
 * One simulated search's clicks (and satisfied clicks) on a shown list. Under PBM a click satisfies
 * with the document's satisfaction probability too, so `satisfied` is meaningful in both models.
 */
export function simulateClicks(
  world: World,
  list: readonly number[],
  users: UserModel,
  uniform: () => number,
): { clicks: boolean[]; satisfied: boolean[] } {
  const clicks: boolean[] = new Array<boolean>(list.length).fill(false);
  const satisfied: boolean[] = new Array<boolean>(list.length).fill(false);
  for (let i = 0; i < list.length; i++) {
    const row = list[i]!;
    const a = world.attract[row]!;
    if (users.kind === 'pbm') {
      if (uniform() < examination(users, i + 1) * a) {
        clicks[i] = true;
        satisfied[i] = uniform() < world.satisfy[row]!;
      }
      continue;
    }
    if (uniform() < a) {
      clicks[i] = true;
      if (uniform() < world.satisfy[row]!) {
        satisfied[i] = true;
        break;
      }
    }
    if (uniform() >= users.gamma) break;
  }
  return { clicks, satisfied };
}

/** Metric values of one observed search (for the on-policy baseline and the Monte-Carlo check). */
export function observedValue(clicks: readonly boolean[]): MetricValues {
  const first = clicks.indexOf(true);
  let n = 0;
  for (let i = 0; i < Math.min(clicks.length, DEPTH); i++) if (clicks[i]) n++;
  return { mrr: first >= 0 ? 1 / (first + 1) : 0, clicks_per_search: n, 'ctr@10': n / DEPTH, abandonment_rate: first >= 0 ? 0 : 1 };
}
