/** Light exploration (RandPair) for position-bias estimation: the swap, its propensity and its cost. */
export { DEFAULT_EXPLORATION_DEPTH, overallPropensity, randPair, type RandPairOutcome } from './randpair.js';
export { explorationCost, ndcgAt10, swapLoss } from './cost.js';
