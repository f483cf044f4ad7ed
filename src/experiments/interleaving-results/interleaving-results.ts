import {
  EMPTY_PAIR_SUMS,
  addPairSums,
  compareInterleavedPairs,
  preferenceMatrix,
  rankerOrder,
  teamBalanceCheck,
  unitPairSums,
  type InterleavedPairInput,
  type UnitOutcomes,
} from '../../stats/index.js';
import type { AnalysisSettings, ExperimentRecord, VariantRecord } from '../model/experiment.store.js';
import { applyOutcome, balanceCounts, emptyQueryCredit, interleavingSummary, queryOutcomes } from '../interleaving/index.js';
import type { InterleavedQueryRecord } from '../model/interleaved-query.store.js';
import type { InterleavingResultsView } from '../model/schemas/interleaving-results.schemas.js';
import type { Static } from 'typebox';

type View = Static<typeof InterleavingResultsView>;

const ZERO: UnitOutcomes = { wins: 0, losses: 0, ties: 0 };

/**
 * The results of an interleaving experiment from its recorded lists: each query's pairwise
 * win/loss/tie from its credited clicks (no clicks: a tie), summed per unit, tested per unit by
 * src/stats (sign test or clustered score test, Holm across pairs), the team-balance check in
 * place of SRM, and for multileaving the preference matrix and the overall order.
 */
export function interleavingResults(
  e: ExperimentRecord,
  variants: readonly VariantRecord[],
  lists: readonly InterleavedQueryRecord[],
  settings: AnalysisSettings,
): { view: View; summary: string; trustworthy: boolean } {
  const ids = variants.map((v) => v.id);
  const pairs: [string, string][] = [];
  for (let i = 0; i < ids.length; i += 1) for (let j = i + 1; j < ids.length; j += 1) pairs.push([ids[i]!, ids[j]!]);
  const pairIndex = new Map(pairs.map(([a, b], k) => [`${a}\u0000${b}`, k]));
  const perUnit = new Map<string, UnitOutcomes[]>();
  const positions = ids.map(() => 0);
  const firstPicks = ids.map(() => 0);
  const ignored = { notShown: 0, belowDepth: 0, beforeList: 0, repeated: 0 };
  const teamIndex = new Map(ids.map((id, i) => [id, i]));
  for (const list of lists) {
    const credit = list.credit ?? emptyQueryCredit(list);
    for (const k of Object.keys(ignored) as (keyof typeof ignored)[]) ignored[k] += credit.ignored[k];
    const unit = perUnit.get(list.unitId) ?? pairs.map(() => ZERO);
    for (const o of queryOutcomes(list.teams, credit.clicks)) {
      const forward = pairIndex.get(`${o.team}\u0000${o.opponent}`);
      const backward = pairIndex.get(`${o.opponent}\u0000${o.team}`);
      if (forward !== undefined) unit[forward] = applyOutcome(unit[forward]!, o.outcome);
      else if (backward !== undefined) {
        const flipped = o.outcome === 'win' ? 'loss' : o.outcome === 'loss' ? 'win' : 'tie';
        unit[backward] = applyOutcome(unit[backward]!, flipped);
      }
    }
    perUnit.set(list.unitId, unit);
    const shown = {
      teams: list.teams,
      depth: list.depth,
      method: e.configuration.interleaving?.method ?? ('team-draft' as const),
      results: list.results.map(([resultId, t], i) => ({ resultId, team: list.teams[t]!, rank: i + 1 })),
    };
    const b = balanceCounts(shown);
    b.positions.forEach((p, t) => {
      const idx = teamIndex.get(list.teams[t]!);
      if (idx !== undefined) positions[idx] = positions[idx]! + p;
    });
    if (b.firstPickTeam !== null) {
      const idx = teamIndex.get(list.teams[b.firstPickTeam]!);
      if (idx !== undefined) firstPicks[idx] = firstPicks[idx]! + 1;
    }
  }
  const inputs: InterleavedPairInput[] = pairs.map(([a, b], k) => ({
    variantId: a,
    opponentVariantId: b,
    sums: [...perUnit.values()].reduce((acc, u) => addPairSums(acc, unitPairSums(u[k]!)), EMPTY_PAIR_SUMS),
  }));
  const comparisons = compareInterleavedPairs(inputs, {
    alpha: settings.alpha,
    method: settings.method,
    correction: settings.correction,
    tuningParameter: settings.sequentialTuning,
  });
  const balance = teamBalanceCheck(positions, firstPicks);
  const multileave = ids.length > 2;
  const order = multileave ? rankerOrder(ids, comparisons) : undefined;
  const view: View = {
    method: e.configuration.interleaving?.method ?? 'team-draft',
    depth: e.configuration.interleaving?.depth ?? 10,
    queries: lists.length,
    units: perUnit.size,
    pairs: comparisons.map((c) => ({
      variantId: c.variantId,
      opponentVariantId: c.opponentVariantId,
      queries: c.queries,
      wins: c.wins,
      losses: c.losses,
      ties: c.ties,
      units: c.units,
      preference: c.preference,
      ci: c.ci ? [...c.ci] : null,
      share: c.share,
      shareCi: c.shareCi ? [...c.shareCi] : null,
      pValue: c.pValue,
      adjustedPValue: c.adjustedPValue,
      significant: c.significant,
      winner: c.winner,
      test: c.test,
      reason: c.reason,
    })),
    balance: {
      passed: balance.passed,
      positionShares: Object.fromEntries(ids.map((id, i) => [id, balance.positionShares[i] ?? 0])),
      positionsPValue: balance.positions.pValue,
      firstPicks: Object.fromEntries(ids.map((id, i) => [id, firstPicks[i]!])),
      firstPicksPValue: balance.firstPicks.pValue,
      note: balance.positions.note ?? balance.firstPicks.note ?? null,
    },
    ignoredClicks: ignored,
    ...(multileave
      ? { matrix: { variantIds: ids, preference: preferenceMatrix(ids, comparisons) }, order: order!.map((s) => ({ ...s })) }
      : {}),
  };
  const summary = interleavingSummary({
    comparisons,
    names: Object.fromEntries(variants.map((v) => [v.id, v.name])),
    method: settings.method,
    correction: settings.correction,
    balance,
    ...(order ? { order } : {}),
  });
  return { view, summary, trustworthy: balance.passed };
}
