import type { ApiCounters } from './api-client.js';
import type { DemoExperiment } from './experiments.js';
import { describeClicksRanker, describeHeadToHead, trainingMode } from './head-to-head.js';
import { RANKER_ID } from './models.js';
import type { DemoSummary } from './run-demo.js';
import type { TrafficStats } from './traffic.js';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)} %`);
const signed = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} %`);
const p = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x < 0.001 ? '< 0.001' : x.toFixed(3));

export interface ProgressState {
  seconds: number;
  rate: number;
  phase: string;
  stats: TrafficStats;
  api: ApiCounters;
  simNow: number;
  experiments: DemoExperiment[];
}

/** The one-line progress display: rate, sessions, requests, 429s, phase and the experiments' arms. */
export function formatProgress(s: ProgressState): string {
  // Arms are "<experimentId>:<arm>"; the head-to-head's interleaved arm is named apart from the engine interleaving's.
  const duel = s.experiments.find((e) => e.headToHead)?.experimentId;
  const arms = Object.entries(s.stats.arms)
    .filter(([arm]) => arm !== 'engine')
    .map(([arm, n]) => `${duel && arm.startsWith(`${duel}:`) ? 'head-to-head' : arm.replace(/^[^:]*:/, '')} ${int(n)}`)
    .join(' / ');
  const kinds = s.experiments.map((e) => (e.headToHead ? 'head-to-head' : e.type));
  const experiments = s.experiments.length ? ` · ${kinds.join(' + ')} running${arms ? ` (${arms})` : ''}` : '';
  return (
    `[${String(Math.round(s.seconds)).padStart(4)} s] ${s.rate.toFixed(1)} sessions/s · ${int(s.stats.sessions)} sessions · ` +
    `${int(s.api.requests)} requests · ${s.api.throttled} throttled · ${s.phase}${experiments} · event time ${new Date(s.simNow).toISOString().slice(0, 13)}h`
  );
}

export function formatSummary(s: DemoSummary): string[] {
  const lines = [
    `Ran ${s.wallSeconds} s: ${int(s.sessions)} sessions (${s.sessionsPerSecond.toFixed(1)}/s), ${int(s.searches)} searches, ${int(s.clicks)} clicks, ` +
      `${int(s.feedbackItems)} feedback items; ${int(s.requests)} requests (${s.requestsPerSecond.toFixed(0)}/s), ${s.throttled} throttled (429), ` +
      `${s.failedRequests} failed.`,
  ];
  if (s.clickModel) lines.push(`Click model default: ${s.clickModel.status}, version ${s.clickModel.activeVersion ?? '–'}.`);
  if (s.ranker) {
    const m = s.ranker.metrics as { ndcg?: Record<string, number>; baseline?: { original?: { ndcg?: Record<string, number> } } };
    lines.push(
      `Ranker demo-ranker: ${s.ranker.status}, version ${s.ranker.activeVersion ?? '–'}; held-out NDCG@10 by its click-model labels ` +
        `${m.ndcg?.['10']?.toFixed(3) ?? '–'} vs original order ${m.baseline?.original?.ndcg?.['10']?.toFixed(3) ?? '–'}.`,
    );
  }
  if (s.ndcg) {
    lines.push(
      `True NDCG@10 over ${s.ndcg.queries} queries (hidden grades): engine ${s.ndcg.engine.toFixed(3)} → ranker ${s.ndcg.ranker.toFixed(3)}; ` +
        `weighted by traffic ${s.ndcg.engineWeighted.toFixed(3)} → ${s.ndcg.rankerWeighted.toFixed(3)}.`,
    );
  }
  if (s.clicksRanker) lines.push(...describeClicksRanker(s.clicksRanker, s.clicksNdcg, s.ndcg));
  lines.push(...predictionBesideOutcome(s));
  for (const e of s.experiments) {
    lines.push(`${e.name}: ${e.summary}`);
    if (e.headToHead) lines.push(`  ${describeHeadToHead(e, s.clicksRanker ? trainingMode(s.clicksRanker) : null)}`);
    for (const m of e.metrics) {
      const values = Object.entries(m.values)
        .map(([v, x]) => `${v} ${x === null ? '–' : m.metric === 'mrr' || m.metric === 'ctr' ? x.toFixed(3) : pct(x)}`)
        .join(', ');
      lines.push(
        `  ${m.metric.padEnd(22)} ${values}; lift ${signed(m.relativeLift)}, p ${p(m.pValue)}, adjusted p ${p(m.adjustedPValue)}` +
          `${m.significant ? ' — significant' : ' — not significant'}`,
      );
    }
  }
  if (s.lastError) lines.push(`Last error: ${s.lastError}`);
  return lines;
}

/** The learned ranker's offline MRR prediction beside the A/B test's observed lift: the track record's first pair. */
function predictionBesideOutcome(s: DemoSummary): string[] {
  const predicted = s.predictions.find((p) => p.modelId === RANKER_ID)?.mrr;
  const observed = s.experiments.find((e) => e.type === 'ab')?.metrics.find((m) => m.metric === 'mrr')?.relativeLift;
  if (!predicted || observed === null || observed === undefined) return [];
  const [low, high] = predicted.interval;
  const inside = observed >= low && observed <= high;
  return [
    `Offline prediction for ${RANKER_ID}: mrr ${signed(predicted.estimate)} [${signed(low)}, ${signed(high)}]; the A/B test observed ${signed(observed)} ` +
      `(${inside ? 'inside' : 'outside'} the predicted interval).`,
  ];
}
