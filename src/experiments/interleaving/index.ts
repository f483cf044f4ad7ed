/**
 * Interleaving and multileaving — pure code, no I/O: imports only node:crypto and src/stats.
 *
 * interleave({method, rankings, key, depth}) → the list shown, each result with its team
 * validateInterleaving(method, rankings, depth) → issues naming the variant and index
 * creditClicks(shownList, events, previous?) → credited clicks per team, ignored clicks by reason
 * queryOutcomes / outcomeChanges / applyOutcome → per pair win/loss/tie and what changes per unit
 * balanceCounts(list) → credited positions per team and the first pick (team-balance counters)
 * interleavingSummary(...) → the results sentence
 * Statistics live in src/stats (interleavingPairTest, compareInterleavedPairs, rankerOrder, teamBalanceCheck).
 */
export {
  DEFAULT_DEPTH,
  MAX_DEPTH,
  MAX_RESULTS_PER_RANKING,
  TEAM_LIMITS,
  type InterleaveRequest,
  type InterleavedList,
  type InterleavedResult,
  type InterleavingMethod,
  type Ranking,
} from './types.js';
export { interleavingRandom, type InterleavingKey } from './random.js';
export { balanceCounts, interleave, teamDraft } from './team-draft.js';
export { duplicateIndexes, validateInterleaving, type InterleavingIssue, type InterleavingIssueCode } from './validate.js';
export {
  CLICK_ACTION,
  applyOutcome,
  creditClicks,
  emptyQueryCredit,
  outcomeChanges,
  queryOutcomes,
  type CreditableEvent,
  type IgnoredClicks,
  type PairOutcome,
  type QueryCredit,
  type QueryPairOutcome,
  type ShownList,
} from './credit.js';
export { interleavingSummary, type SummaryInput } from './summary.js';
