/**
 * Light exploration by RandPair (Joachims, Swaminathan & Schnabel, "Unbiased Learning-to-Rank with
 * Biased Feedback", WSDM 2017; the swap intervention of Radlinski & Joachims, AAAI 2006): an explored
 * search is shown the served ranking with one adjacent pair of the top `depth` swapped, the pair drawn
 * uniformly. A result seen at rank i in some searches and at rank i + 1 in others, with everything
 * else equal, is what intervention harvesting (Agarwal et al., WSDM 2019) turns into the relative
 * examination of the two positions; the swap costs little because it moves each result by one place.
 *
 * Pure: plain data in, plain data out; the caller supplies the uniform generator (seeded, so a list
 * can be drawn again).
 */

/** Swapping is confined to the top 10 unless the caller says otherwise. */
export const DEFAULT_EXPLORATION_DEPTH = 10;

export interface RandPairOutcome {
  /** The list to show, rank 1 first (a new array; the input is not changed). */
  ranking: string[];
  /** The 1-based ranks that were swapped (i, i + 1); null when the list has fewer than two results. */
  swapped: [number, number] | null;
  /**
   * The probability that this exact list is shown **given that the search is explored**: 1 / (k − 1)
   * with k = min(depth, length), since each of the k − 1 adjacent pairs is equally likely and each
   * swap yields a different list (result ids are distinct). 1 when nothing can be swapped.
   * The probability over all searches is `share × propensity` for an explored unit's list (see
   * `overallPropensity`); an unexplored search shows the served list with probability 1 − share.
   */
  propensity: number;
}

/**
 * Swaps one uniformly chosen adjacent pair within the top `depth` of `ranking`.
 * `random` must be uniform on [0, 1) (src/random's mulberry32 seeded by the caller).
 */
export function randPair(ranking: readonly string[], random: () => number, depth: number = DEFAULT_EXPLORATION_DEPTH): RandPairOutcome {
  const shown = [...ranking];
  const k = Math.min(Math.max(Math.floor(depth), 0), shown.length);
  if (k < 2) return { ranking: shown, swapped: null, propensity: 1 };
  const pairs = k - 1;
  // min() guards a generator that returns exactly 1 by mistake; uniform on [0, 1) never does.
  const i = Math.min(Math.floor(random() * pairs), pairs - 1);
  [shown[i], shown[i + 1]] = [shown[i + 1]!, shown[i]!];
  return { ranking: shown, swapped: [i + 1, i + 2], propensity: 1 / pairs };
}

/**
 * The probability, over all searches of the deployment, that an explored list was shown: the share
 * of units explored times the conditional propensity of `randPair`.
 */
export function overallPropensity(share: number, propensity: number): number {
  return share * propensity;
}
