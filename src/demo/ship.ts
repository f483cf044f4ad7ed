import type { ApiClient } from './api-client.js';
import { PRODUCTION_ALIAS, type ExperimentReport } from './experiments.js';
import { RANKER_ID } from './models.js';

/** The A/B test's verdict on the ranker arm, read from its results. */
export interface WinnerVerdict {
  /** "ranker" when it won, else null. */
  winner: 'ranker' | null;
  /** Why, in words: the metrics behind the verdict. */
  reason: string;
}

/** What the alias serves: a model's version, or the engine's own order (null). */
export type AliasTarget = { modelId: string; version: number | null } | null;

export interface ShipOutcome {
  experimentId: string;
  shipped: boolean;
  reason: string;
  /** The conclusion's own sentence on what serves afterwards (conclusion.summary), when the service gives one. */
  conclusionSummary?: string;
  alias?: { alias: string; from: AliasTarget; to: AliasTarget };
}

const pct = (x: number | null) => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} %`);

/**
 * The ranker wins when the results are trustworthy (sample-ratio check passed), the primary
 * metric (the first target metric, mrr) improved significantly, and no target metric is
 * significantly worse — the rule a team would apply before shipping.
 */
export function decideWinner(report: ExperimentReport): WinnerVerdict {
  if (report.trustworthy === false) return { winner: null, reason: 'the sample-ratio check failed: the results cannot be trusted' };
  const [primary] = report.metrics;
  if (!primary) return { winner: null, reason: 'the results have no metrics yet' };
  const worse = report.metrics.filter((m) => m.significant && m.improved === false);
  if (worse.length > 0) {
    return { winner: null, reason: `significantly worse on ${worse.map((m) => `${m.metric} (${pct(m.relativeLift)})`).join(', ')}` };
  }
  if (primary.improved !== true) {
    return {
      winner: null,
      reason: `${primary.metric}, the primary metric, is not significantly better (lift ${pct(primary.relativeLift)})`,
    };
  }
  const better = report.metrics.filter((m) => m.improved === true).map((m) => `${m.metric} ${pct(m.relativeLift)}`);
  return { winner: 'ranker', reason: `significantly better on ${better.join(', ')}, worse on none` };
}

const describe = (t: AliasTarget) =>
  t === null ? "the engine's original order" : t.version === null ? `the active version of ${t.modelId}` : `v${t.version} of ${t.modelId}`;

/** `from → to` of an alias move, in words. */
export function describeMove(move: NonNullable<ShipOutcome['alias']>): string {
  return `alias "${move.alias}": ${describe(move.from)} → ${describe(move.to)}`;
}

interface ConcludedView {
  conclusion?: {
    summary?: string;
    promotion?: { alias: string; modelId: string; version: number; from: { modelId: string; version: number | null } | null };
  } | null;
}
interface AliasView {
  alias: string;
  modelId: string | null;
  version: number | null;
  servingVersion?: number | null;
}

/**
 * `--ship`: concludes the A/B test with decision ship and the ranker as winner when it won; its
 * configuration.promote moves the `production` alias in the conclusion's transaction. The move is
 * read back from the answer (conclusion.promotion) and from GET …/aliases/production.
 */
export async function shipWinner(api: ApiClient, report: ExperimentReport): Promise<ShipOutcome> {
  const verdict = decideWinner(report);
  if (verdict.winner === null) return { experimentId: report.experimentId, shipped: false, reason: verdict.reason };
  const concluded = await api.post<ConcludedView>(`/api/nous/ab-testing/experiments/${report.experimentId}/conclude`, {
    decision: 'ship',
    winnerVariantId: verdict.winner,
    notes: `shipped by searchloop demo --ship: ${verdict.reason}`,
  });
  const promotion = concluded.conclusion?.promotion;
  const alias = await api.get<AliasView>(`/api/nous/learn/aliases/${PRODUCTION_ALIAS}`, [404]).catch(() => undefined);
  const outcome: ShipOutcome = { experimentId: report.experimentId, shipped: true, reason: verdict.reason };
  if (concluded.conclusion?.summary) outcome.conclusionSummary = concluded.conclusion.summary;
  if (promotion) {
    outcome.alias = {
      alias: promotion.alias,
      from: promotion.from ? { modelId: promotion.from.modelId, version: promotion.from.version ?? null } : null,
      // What the alias serves now, as the service answers it (else what the conclusion says it moved to).
      to: alias?.modelId ? { modelId: alias.modelId, version: alias.version } : { modelId: promotion.modelId, version: promotion.version },
    };
  }
  return outcome;
}

/** What the user can do next, printed at the end of a run without --ship. */
export function nextSteps(dashboard: string, report: ExperimentReport): string[] {
  const verdict = decideWinner(report);
  const page = new URL(`experiments/${report.experimentId}`, dashboard).href;
  return [
    'Next:',
    verdict.winner
      ? `  open ${page} and ship the winner with Conclude (decision ship, winner "Learned ranker (${RANKER_ID})"): ${verdict.reason}.`
      : `  open ${page}: the ranker has not won yet (${verdict.reason}); conclude when it does, or run longer.`,
    `  Concluding with ship moves the "${PRODUCTION_ALIAS}" alias to the ranker (the experiment's configuration.promote),`,
    `  then see ${new URL(PRODUCTION_ALIAS, dashboard).href}: what production serves, its history and rollback.`,
    '  Or run the demo with --ship to conclude and ship from here.',
  ];
}

/** The lines `--ship` prints. */
export function formatShipOutcome(outcome: ShipOutcome): string[] {
  if (!outcome.shipped) return [`--ship: the ranker did not win (${outcome.reason}): nothing shipped; the A/B test keeps running.`];
  const lines = [`--ship: concluded the A/B test with ship, winner "ranker" (${outcome.reason}).`];
  // The move as read back; without one, the conclusion's own sentence says what serves instead.
  if (outcome.alias) lines.push(`  ${describeMove(outcome.alias)}`);
  else lines.push(`  ${outcome.conclusionSummary ?? 'no alias moved: the experiment has no promotion target'}`);
  return lines;
}
