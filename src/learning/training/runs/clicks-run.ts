import {
  DEFAULT_PROPENSITY_CLIP,
  buildClickLog,
  compareToBaselines,
  compileModel,
  deserializeModel,
  ipsWeights,
  scoreBatch,
  splitClickLogByQuery,
  type ClickSession,
  type ClickTrainOptions,
} from '../../../ranker/index.js';
import { harvestPropensities, type LoggedSearch } from '../../../offline-eval/index.js';
import type { SearchSession } from '../../../click-models/index.js';
import type { RankerSettings } from '../../model/model-config.js';
import type { RankerArtifact } from '../../model/artifacts.js';
import { behaviourRow, featureNamesOf } from '../../model/feature-rows.js';
import { trainOnClicksThreaded } from '../ranker-threads.js';
import { buildBehaviourTable } from './behaviour-features.js';
import { CLICKS_BEHAVIOUR_FEATURES, selectBehaviour } from './clicks-features.js';
import { heldOutClicks, heldOutJudgments, weightedClickLabels } from './clicks-metrics.js';
import { trainingBlock, type PositionBiasRow } from './training-block.js';
import { emptyColumns } from './feedback-columns.js';
import { type TrainingInput, type TrainingOutput } from './protocol.js';
import { buildSessions } from './sessions.js';
import { trainParams } from './tree-params.js';
import { rankerReport } from './ranker-run.js';

const MAX_DEPTH = 10;
type Bias = { source: 'harvested' | 'config' | 'learned' | 'none'; harvestedPairs?: number; curve: number[]; unclicked?: number[] };

/**
 * The ips curve: the config's, or harvested from this window's own interventions (AllPairs over
 * the searches as shown). Only the point estimate is used, so no bootstrap replicates are drawn.
 */
function ipsCurve(settings: RankerSettings, sessions: readonly SearchSession[]): Bias | string {
  if (settings.propensities !== undefined) return { source: 'config', curve: settings.propensities };
  const searches: LoggedSearch[] = sessions.map((s, i) => ({
    queryHash: s.queryHash,
    // Training's columns carry no session ids; each search is its own cluster (only the bootstrap reads it).
    sessionId: String(i),
    resultIds: [...s.resultIds],
    clicks: [...s.clicks],
    satisfied: s.clicks.map(() => false),
  }));
  const harvested = harvestPropensities(searches, { maxDepth: MAX_DEPTH, bootstrap: 0, seed: 1 });
  if (harvested.harvestedPairs === 0)
    return (
      `no position bias to harvest: none of the window's ${sessions.length} searches shows a result at a position another search of its query showed it at differently. ` +
      'Turn on exploration (PUT /api/nous/rank/exploration) so rankings swap results, or set config.propensities'
    );
  return {
    source: 'harvested',
    harvestedPairs: harvested.harvestedPairs,
    curve: boundedPropensities(harvested.positions.map((p) => p.estimate)),
  };
}

/**
 * A harvested curve as ips can use it. With few swapped pairs at a position its ratio estimate can
 * exceed position 1's (1.88 at position 5 in a 10 000-session bench cell): noise, not a position seen
 * more than the top, so it is capped at 1 (the click keeps weight 1 rather than being discounted).
 */
export function boundedPropensities(estimates: readonly number[]): number[] {
  return estimates.map((e) => (Number.isFinite(e) ? Math.min(1, Math.max(0, e)) : 1));
}

/** The curve for every logged position 1..depth (a shorter curve's last value carries on down). */
function extend(curve: readonly number[], depth: number): number[] {
  return Array.from({ length: depth }, (_, k) => curve[Math.min(k, curve.length - 1)] ?? 1);
}

/**
 * A ranker learned from the window's clicks themselves (issue 27): the searches shown with
 * impressions become a ClickLog whose features are the feedback path's rows (minus the
 * click-derived behaviour features, clicks-features.ts), LambdaMART learns from pairs of
 * clicked/unclicked results debiased per config.debiasing, and the held-out queries score it on
 * clicks (debiased with the same curve) and, where they hold ratings, on those.
 */
export function runRankerFromClicks(
  input: TrainingInput,
  settings: RankerSettings,
  /** Which behaviour features the rows carry: CLICKS_BEHAVIOUR_FEATURES (the tests measure others). */
  behaviourFeatures: readonly string[] = CLICKS_BEHAVIOUR_FEATURES,
): TrainingOutput {
  const cols = input.feedback ?? emptyColumns();
  const { sessions, stats } = buildSessions(cols, MAX_DEPTH, { clickOnly: 'drop' });
  const baseCounts = { feedbackItems: cols.queryId.length, searches: stats.searches, sessions: sessions.length };
  if (sessions.length === 0)
    return {
      kind: 'no-data',
      message:
        'no logged search with impressions in the window: a clicks ranker learns from the lists shown (impressions with positions) and their clicks',
      counts: baseCounts,
    };
  const debiasing = settings.debiasing ?? 'unbiased-lambdamart';
  const clip = settings.propensityClip ?? DEFAULT_PROPENSITY_CLIP;
  let bias: Bias | undefined;
  if (debiasing === 'ips') {
    const chosen = ipsCurve(settings, sessions);
    if (typeof chosen === 'string') return { kind: 'no-data', message: chosen, counts: baseCounts };
    bias = chosen;
  }
  const full = buildBehaviourTable(cols, sessions);
  const table = selectBehaviour(full, behaviourFeatures);
  const names = featureNamesOf(table);
  const clickSessions: ClickSession[] = sessions.map((s) => ({ queryKey: s.queryHash, docKeys: s.resultIds, clicks: s.clicks }));
  const log = buildClickLog(clickSessions, (q: string, d: string) => behaviourRow(table, q, d), names, MAX_DEPTH);
  const queries = log.queryKeys.length;
  if (queries < 2)
    return {
      kind: 'no-data',
      message: `learning from clicks needs at least 2 queries with logged searches; found ${queries}`,
      counts: baseCounts,
    };

  const seed = settings.tree.seed ?? 1;
  const { train, valid } = splitClickLogByQuery(log, settings.heldOutFraction, seed + 7919);
  const options: ClickTrainOptions = debiasing === 'ips' ? { debiasing, propensities: (bias as Bias).curve, clip } : { debiasing };
  const result = trainOnClicksThreaded(train, trainParams(settings.tree), options);
  if (debiasing === 'unbiased-lambdamart' && result.positionBias)
    bias = { source: 'learned', curve: result.positionBias.clicked, unclicked: result.positionBias.unclicked };
  bias ??= { source: 'none', curve: [1] };

  let depth = 1;
  for (const p of log.position) depth = Math.max(depth, p);
  const curve = extend(bias.curve, depth);
  // The held-out clicks are debiased with the curve the version trained with (none: unweighted).
  const weights = ipsWeights(curve, bias.source === 'none' ? 1 : clip);
  const positions: PositionBiasRow[] = curve.map((clicked, k) => ({
    position: k + 1,
    clicked,
    unclicked: bias.unclicked ? (extend(bias.unclicked, depth)[k] as number) : bias.source === 'none' ? 1 : null,
  }));

  const forest = compileModel(result.model);
  const clicks = heldOutClicks(valid, forest, weights);
  const labels = weightedClickLabels(valid, weights);
  const report = compareToBaselines(labels, scoreBatch(forest, valid.features), valid.groups, seed);
  const heldOutKeys = new Set(Array.from(valid.groupQuery, (q) => valid.queryKeys[q] as string));
  const judgments = heldOutJudgments(full, table, heldOutKeys, result.model);

  let active: number | null = null;
  if (input.activeArtifact) {
    const previous = deserializeModel((JSON.parse(input.activeArtifact) as RankerArtifact).model);
    if (previous.featureNames.join('\u0000') === result.model.featureNames.join('\u0000'))
      active = heldOutClicks(valid, compileModel(previous), weights).model;
  }
  const artifact: RankerArtifact = { format: 'searchloop.ranker', version: 1, source: 'clicks', model: result.model, behaviour: table };
  const metrics = {
    source: 'clicks',
    training: trainingBlock(
      { ...settings, debiasing, propensityClip: clip },
      {
        source: bias.source,
        ...(bias.harvestedPairs === undefined ? {} : { harvestedPairs: bias.harvestedPairs }),
        positions,
      },
    ),
    heldOut: { clicks, judgments },
    ...rankerReport(report, result),
    heldOutQueries: heldOutKeys.size,
  };
  return {
    kind: 'trained',
    metrics,
    counts: {
      ...baseCounts,
      searchesDropped: stats.searchesDropped,
      rows: log.numRows,
      groups: log.groups.length - 1,
      queries,
      features: log.numFeatures,
      trainRows: train.numRows,
      heldOutRows: valid.numRows,
    },
    artifact: JSON.stringify(artifact),
    comparison: { metric: 'ips-ndcg@10', higherIsBetter: true, value: clicks.model, active },
  };
}
