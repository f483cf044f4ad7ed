import { behaviourRow } from '../../model/feature-rows.js';
import type { BehaviourTable } from '../../model/artifacts.js';
import { clickNdcg, compileModel, ndcgAt, scoreBatch, type ClickLog, type CompiledForest } from '../../../ranker/index.js';
import { finiteOrNull } from './protocol.js';
import { gradeOfRating } from './ranker-run.js';

/**
 * Per row of `log`: its click rate in its group (clicks / sessions) times the weight of its logged
 * position — the gain clickNdcg uses, as labels for the ndcg/map/mrr every ranker version reports.
 */
export function weightedClickLabels(log: ClickLog, weights: Float64Array): Float32Array {
  const labels = new Float32Array(log.numRows);
  for (let g = 0; g + 1 < log.groups.length; g += 1) {
    const n = log.sessions[g] as number;
    for (let i = log.groups[g] as number; i < (log.groups[g + 1] as number); i += 1) {
      const w = weights[Math.min((log.position[i] as number) - 1, weights.length - 1)] as number;
      labels[i] = n > 0 ? ((log.clicks[i] as number) / n) * w : 0;
    }
  }
  return labels;
}

export function heldOutClicks(log: ClickLog, forest: CompiledForest, weights: Float64Array) {
  const r = clickNdcg(log, scoreBatch(forest, log.features), weights, 10);
  return { metric: 'ips-ndcg@10', model: finiteOrNull(r.model), logged: finiteOrNull(r.logged), groups: r.groups, sessions: r.sessions };
}

/**
 * NDCG@10 on explicit ratings (grades as the feedback path makes them) of the held-out queries:
 * per query with two or more rated results, the model's order of them against the logged order
 * (mean position shown). Null when no held-out query has two rated results.
 */
export function heldOutJudgments(
  full: BehaviourTable,
  table: BehaviourTable,
  queries: ReadonlySet<string>,
  model: Parameters<typeof compileModel>[0],
) {
  const rating = full.names.indexOf('meanRating');
  const position = full.names.indexOf('meanPosition');
  const features: number[] = [];
  const labels: number[] = [];
  const logged: number[] = [];
  const sizes: number[] = [];
  for (const q of queries) {
    const rated = Object.entries(full.pairs[q] ?? {}).filter(([, v]) => v[rating] != null);
    if (rated.length < 2) continue;
    for (const [r, v] of rated) {
      labels.push(gradeOfRating(v[rating] as number));
      logged.push(-(v[position] ?? Infinity));
      for (const x of behaviourRow(table, q, r)) features.push(x);
    }
    sizes.push(rated.length);
  }
  if (sizes.length === 0) return null;
  const groups = new Int32Array(sizes.length + 1);
  sizes.forEach((s, i) => (groups[i + 1] = (groups[i] as number) + s));
  const scores = scoreBatch(compileModel(model), Float32Array.from(features));
  return {
    metric: 'ndcg@10',
    source: 'ratings',
    model: finiteOrNull(ndcgAt(labels, scores, groups, 10)),
    logged: finiteOrNull(
      ndcgAt(
        labels,
        Float64Array.from(logged, (x) => (Number.isFinite(x) ? x : -1e9)),
        groups,
        10,
      ),
    ),
    queries: sizes.length,
  };
}
