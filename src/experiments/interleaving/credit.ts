import type { UnitOutcomes } from '../../stats/index.js';
import type { InterleavedList } from './types.js';

/** The action that earns credit: the service's single vocabulary (see docs/statistics.md, "Metric definitions"). */
export const CLICK_ACTION = 'click';

/** The list as shown, with when the service recorded it (server clock, ms since the epoch). */
export interface ShownList extends Pick<InterleavedList, 'teams' | 'depth' | 'results'> {
  readonly recordedAt: number;
}

/** The fields of a feedback item that crediting reads. `receivedAt` is the server's clock. */
export interface CreditableEvent {
  readonly resultId: string | null;
  readonly userAction: string | null;
  readonly receivedAt: number;
}

/** Clicks that earned nothing, by reason; reported so silent loss is visible. */
export interface IgnoredClicks {
  /** On a result that was not in the shown list. */
  readonly notShown: number;
  /** On a shown result below `depth`. */
  readonly belowDepth: number;
  /** Received before the list was recorded: it cannot be a response to this list. */
  readonly beforeList: number;
  /** A second click on a result already credited in this query. */
  readonly repeated: number;
}

/** The credit state of one query; fold more events into it with `creditClicks`. */
export interface QueryCredit {
  /** Credited clicks per team, aligned with the list's `teams`. */
  readonly clicks: readonly number[];
  readonly creditedResultIds: readonly string[];
  readonly ignored: IgnoredClicks;
}

export function emptyQueryCredit(list: Pick<ShownList, 'teams'>): QueryCredit {
  return { clicks: list.teams.map(() => 0), creditedResultIds: [], ignored: { notShown: 0, belowDepth: 0, beforeList: 0, repeated: 0 } };
}

/**
 * Credits a query's clicks (Radlinski et al. 2008: a click counts for the team that placed the
 * result). Rules, in the order applied to each event:
 * 1. only `userAction: "click"` counts; other items are not clicks and are skipped silently;
 * 2. a click received before the list was recorded (receivedAt < recordedAt) is ignored and
 *    counted as `beforeList`: it answers some other list (a reused queryId, a client bug);
 * 3. a click on a result not in the list is ignored and counted as `notShown`;
 * 4. a click on a result ranked below `depth` is ignored and counted as `belowDepth`: team draft
 *    balances the teams only in the top `depth`, so lower positions would bias the comparison;
 * 5. a result is credited once per query however often it is clicked (`repeated` counts the rest),
 *    so double clicks and resent events cannot decide a query;
 * 6. otherwise the result's team gets one click.
 * The client's `position` is not used: the recorded list is the truth about who placed what.
 * Events may arrive in batches: pass the previous state and only the new events.
 */
export function creditClicks(list: ShownList, events: readonly CreditableEvent[], previous?: QueryCredit): QueryCredit {
  const state = previous ?? emptyQueryCredit(list);
  const teamIndex = new Map(list.teams.map((t, i) => [t, i]));
  const placed = new Map(list.results.map((r) => [r.resultId, r]));
  const clicks = [...state.clicks];
  const credited = new Set(state.creditedResultIds);
  const ignored = { ...state.ignored };
  for (const e of events) {
    if (e.userAction !== CLICK_ACTION) continue;
    if (e.receivedAt < list.recordedAt) {
      ignored.beforeList += 1;
      continue;
    }
    const result = e.resultId === null ? undefined : placed.get(e.resultId);
    const team = result === undefined ? undefined : teamIndex.get(result.team);
    if (result === undefined || team === undefined) {
      ignored.notShown += 1;
    } else if (result.rank > list.depth) {
      ignored.belowDepth += 1;
    } else if (credited.has(result.resultId)) {
      ignored.repeated += 1;
    } else {
      credited.add(result.resultId);
      clicks[team] = (clicks[team] as number) + 1;
    }
  }
  return { clicks, creditedResultIds: [...credited], ignored };
}

export type PairOutcome = 'win' | 'loss' | 'tie';

/** One pair of teams in one query, from `team`'s side (team precedes opponent in `teams`). */
export interface QueryPairOutcome {
  readonly team: string;
  readonly opponent: string;
  readonly outcome: PairOutcome;
}

/**
 * Per pair of teams (i < j in `teams` order): the team with more credited clicks wins, equal
 * counts — including none — tie. Two teams give one pair; multileaving with k gives k(k−1)/2,
 * the pairwise rule of Schuth et al. (2014).
 */
export function queryOutcomes(teams: readonly string[], clicks: readonly number[]): QueryPairOutcome[] {
  const out: QueryPairOutcome[] = [];
  for (let i = 0; i < teams.length; i += 1) {
    for (let j = i + 1; j < teams.length; j += 1) {
      const a = clicks[i] ?? 0;
      const b = clicks[j] ?? 0;
      out.push({ team: teams[i] as string, opponent: teams[j] as string, outcome: a > b ? 'win' : a < b ? 'loss' : 'tie' });
    }
  }
  return out;
}

/** The pairs whose outcome changed between two credit states of one query (what a store must update). */
export function outcomeChanges(
  teams: readonly string[],
  before: QueryCredit,
  after: QueryCredit,
): { team: string; opponent: string; from: PairOutcome; to: PairOutcome }[] {
  const a = queryOutcomes(teams, before.clicks);
  const b = queryOutcomes(teams, after.clicks);
  return a.flatMap((o, i) => {
    const to = (b[i] as QueryPairOutcome).outcome;
    return o.outcome === to ? [] : [{ team: o.team, opponent: o.opponent, from: o.outcome, to }];
  });
}

const FIELD: Record<PairOutcome, keyof UnitOutcomes> = { win: 'wins', loss: 'losses', tie: 'ties' };

/** A unit's counts against one opponent with one query outcome added (sign 1) or removed (−1). */
export function applyOutcome(counts: UnitOutcomes, outcome: PairOutcome, sign: 1 | -1 = 1): UnitOutcomes {
  const field = FIELD[outcome];
  return { ...counts, [field]: counts[field] + sign };
}
