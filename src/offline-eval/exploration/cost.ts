import { DEFAULT_EXPLORATION_DEPTH } from './randpair.js';

/** NDCG is reported at 10, whatever the exploration depth (a swap at 10–11 still moves rank 10). */
const NDCG_CUTOFF = 10;

/**
 * DCG@10 with linear gain: Σ rel_i / log2(i + 1). The relevances are a click model's attractiveness
 * estimates (probabilities in [0, 1]), so the gain is the probability itself rather than the
 * 2^rel − 1 of graded editorial labels.
 */
function dcg(relevance: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < Math.min(NDCG_CUTOFF, relevance.length); i++) sum += relevance[i]! / Math.log2(i + 2);
  return sum;
}

/** NDCG@10 of a list against the ideal order of its own results; 0 when no result has any relevance. */
export function ndcgAt10(relevance: readonly number[]): number {
  const ideal = dcg([...relevance].sort((a, b) => b - a));
  return ideal > 0 ? dcg(relevance) / ideal : 0;
}

/**
 * The NDCG@10 one explored search of this list gives up on average: NDCG@10 of the served order minus
 * the mean NDCG@10 over the k − 1 equally likely adjacent swaps of the top k = min(depth, length).
 * Negative when the served order is worse than its swaps (a swap then helps).
 */
export function swapLoss(relevance: readonly number[], depth: number = DEFAULT_EXPLORATION_DEPTH): number {
  const k = Math.min(Math.floor(depth), relevance.length);
  if (k < 2) return 0;
  const served = ndcgAt10(relevance);
  let swapped = 0;
  for (let i = 0; i < k - 1; i++) {
    const list = [...relevance];
    [list[i], list[i + 1]] = [list[i + 1]!, list[i]!];
    swapped += ndcgAt10(list);
  }
  return served - swapped / (k - 1);
}

/**
 * Expected NDCG@10 given up per search by exploring `share` of the units with RandPair at `depth`:
 * share × the mean over the given searches of `swapLoss`. `relevance` holds one list per logged
 * search, the relevance of its results in served order (rank 1 first). An empty input costs 0.
 */
export function explorationCost(
  relevance: readonly (readonly number[])[],
  share: number,
  depth: number = DEFAULT_EXPLORATION_DEPTH,
): { ndcgLoss: number } {
  if (relevance.length === 0) return { ndcgLoss: 0 };
  let total = 0;
  for (const list of relevance) total += swapLoss(list, depth);
  return { ndcgLoss: (share * total) / relevance.length };
}
