/**
 * Interleaving statistics, one entry for src/stats/index.ts: the per-pair clustered test
 * (interleaving-pair.ts), the family of pairs, ranker order and team balance
 * (interleaving-matrix.ts), and the exact binomial pieces they use (binomial.ts).
 */
export {
  EMPTY_PAIR_SUMS,
  addPairSums,
  fiellerShareInterval,
  interleavingPairTest,
  interleavingUnitsForPower,
  pairSumsFromUnits,
  scoreStatistic,
  swapPairSums,
  unitPairSums,
  type InterleavingMethodName,
  type InterleavingPairSums,
  type InterleavingPairTest,
  type InterleavingTestName,
  type InterleavingTestOptions,
  type UnitOutcomes,
} from './interleaving-pair.js';
export {
  compareInterleavedPairs,
  preferenceMatrix,
  rankerOrder,
  teamBalanceCheck,
  type InterleavedComparison,
  type InterleavedPairInput,
  type PairCorrection,
  type PairFamilyOptions,
  type RankerStanding,
  type TeamBalanceResult,
} from './interleaving-matrix.js';
export { binomialAtLeast, binomialCdf, binomialPmf, clopperPearson, signTestPValue } from '../distributions/binomial.js';
