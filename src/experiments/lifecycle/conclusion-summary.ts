import { describeAliasMove, describeAliasTarget as describeTarget, type AliasTarget as Target } from '../../vocabulary/index.js';

/**
 * The one sentence a conclusion answers with, and the dashboard shows: what serves searches
 * afterwards. It exists because a "ship" that moves no alias changes nothing POST /api/nous/rank
 * serves, and a team must read that plainly rather than discover it (issue 25).
 */

export interface SummaryInput {
  decision: string;
  winnerVariantId: string | null;
  /** The winner's ranker and pinned version, when the winner is model-backed. */
  winnerModel: { modelId: string; version: number } | null;
  promotion: { alias: string; modelId: string; version: number; from: Target | null } | null;
  /** What the production alias serves now (null: the engine's original order). */
  production: Target | null;
  productionAlias: string;
}

export function conclusionSummary(s: SummaryInput): string {
  if (s.promotion) {
    const p = s.promotion;
    return describeAliasMove(p.alias, p.from, { modelId: p.modelId, version: p.version });
  }
  const searches = `searches outside experiments keep ${describeTarget(s.production)} (alias "${s.productionAlias}")`;
  if (s.decision !== 'ship' || s.winnerVariantId === null) return `nothing moves: ${searches}`;
  if (s.winnerModel) {
    return (
      `no alias moved: nothing serves "${s.winnerVariantId}" (${describeTarget(s.winnerModel)}) now; ${searches}. ` +
      `Conclude with promote, or point an alias at it, to ship it`
    );
  }
  return `"${s.winnerVariantId}" is served to every unit this experiment assigns (it has no ranker, so no alias moves); ${searches}`;
}
