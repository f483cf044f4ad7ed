import type { NdcgReport } from './evaluate.js';
import { HEAD_TO_HEAD_VARIANTS, type ExperimentReport } from './experiments.js';
import { CLICKS_RANKER_ID, RANKER_ID, type ModelView } from './models.js';

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const p = (x: number | null) => (x === null ? 'p –' : x < 0.001 ? 'p < 0.001' : `p = ${x.toFixed(3)}`);
const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** What a clicks ranker's version says about how it trained (metrics.training and metrics.heldOut, issue 27). */
interface ClicksMetrics {
  training?: {
    data?: string;
    debiasing?: string;
    positionBias?: {
      source?: string;
      harvestedPairs?: number;
      positions?: { position: number; clicked: number; unclicked: number | null }[];
    };
  };
  heldOut?: { clicks?: { metric: string; model: number; logged: number; groups: number; sessions: number } | null };
}

/** The mode a version's metrics name, e.g. "clicks, unbiased-lambdamart" (null when it names none). */
export function trainingMode(view: ModelView): string | null {
  const t = (view.metrics as ClicksMetrics).training;
  if (!t?.data) return null;
  return t.debiasing ? `${t.data}, ${t.debiasing}` : t.data;
}

const curve = (values: number[]) => values.map((v) => v.toFixed(2)).join(' ');

/** The lines about the clicks ranker: its mode, held-out figures on clicks, position-bias curve and true NDCG. */
export function describeClicksRanker(view: ModelView, ndcg?: NdcgReport, judgmentsNdcg?: NdcgReport): string[] {
  if (view.activeVersion === null) {
    return [
      `Ranker ${CLICKS_RANKER_ID}: ${view.status}, no version (${view.lastTraining?.message ?? view.error ?? 'no message'}); no head-to-head.`,
    ];
  }
  const m = view.metrics as ClicksMetrics;
  const held = m.heldOut?.clicks;
  const bias = m.training?.positionBias;
  const lines = [
    `Ranker ${CLICKS_RANKER_ID} (${trainingMode(view) ?? 'mode not reported'}): ${view.status}, version ${view.activeVersion}` +
      (held
        ? `; held-out ${held.metric} on clicks ${held.model.toFixed(3)} vs logged order ${held.logged.toFixed(3)} ` +
          `(${int(held.groups)} lists, ${int(held.sessions)} sessions).`
        : '.'),
  ];
  if (bias?.positions?.length) {
    const clicked = bias.positions.map((q) => q.clicked);
    const unclicked = bias.positions.map((q) => q.unclicked);
    const harvested = bias.harvestedPairs === undefined ? '' : ` from ${int(bias.harvestedPairs)} pairs swapped between positions`;
    lines.push(
      `  position bias (${bias.source ?? '?'}${harvested}), positions 1–${clicked.length}: clicked ${curve(clicked)}` +
        (unclicked.every((u): u is number => u !== null) ? `; unclicked ${curve(unclicked)}` : ''),
    );
  }
  if (ndcg && judgmentsNdcg) {
    lines.push(
      `True NDCG@10 (hidden grades): ${RANKER_ID} ${judgmentsNdcg.ranker.toFixed(3)}, ${CLICKS_RANKER_ID} ${ndcg.ranker.toFixed(3)}; ` +
        `weighted by traffic ${judgmentsNdcg.rankerWeighted.toFixed(3)} and ${ndcg.rankerWeighted.toFixed(3)}.`,
    );
  }
  return lines;
}

const LABELS: Record<string, string> = {
  [HEAD_TO_HEAD_VARIANTS.judgments]: `${RANKER_ID} (click-model judgments)`,
  [HEAD_TO_HEAD_VARIANTS.clicks]: CLICKS_RANKER_ID,
};

/**
 * The head-to-head's outcome in words: which ranker won how many of the decided queries (a query
 * is decided when its clicks favour one team), the share with its interval against the 50 % of a
 * draw, and whether that is significant.
 */
export function describeHeadToHead(report: ExperimentReport, clicksMode: string | null): string {
  const label = (id: string) => (id === HEAD_TO_HEAD_VARIANTS.clicks && clicksMode ? `${LABELS[id]} (${clicksMode})` : (LABELS[id] ?? id));
  const pair = report.pair;
  if (!pair || pair.share === null || pair.shareCi === null) {
    return `Head to head: no query decided yet (${int(pair?.queries ?? 0)} interleaved, none clicked to favour one ranker): run longer.`;
  }
  const decided = pair.wins + pair.losses;
  const ahead = pair.share >= 0.5;
  const [leader, other] = ahead ? [pair.variantId, pair.opponentVariantId] : [pair.opponentVariantId, pair.variantId];
  const [wins, share] = ahead ? [pair.wins, pair.share] : [pair.losses, 1 - pair.share];
  const [lo, hi] = ahead ? pair.shareCi : [1 - pair.shareCi[1], 1 - pair.shareCi[0]];
  const head =
    pair.share === 0.5
      ? `Head to head (interleaved, ${int(pair.queries)} queries): ${label(leader)} and ${label(other)} each won ${int(wins)} of ${int(decided)} decided queries`
      : `Head to head (interleaved, ${int(pair.queries)} queries): ${label(leader)} won ${int(wins)} of ${int(decided)} decided queries against ${label(other)}`;
  const verdict = pair.significant
    ? `significant: ${leader === HEAD_TO_HEAD_VARIANTS.clicks ? CLICKS_RANKER_ID : RANKER_ID} ranks better, by ${(100 * (share - 0.5)).toFixed(1)} points over a draw`
    : 'not significant: no winner yet (the interval includes the 50 % of a draw)';
  const balance = report.trustworthy === false ? ' The team balance check failed: do not trust this outcome.' : '';
  return `${head} (${pct(share)} [${pct(lo)}, ${pct(hi)}], ${p(pair.pValue)}) — ${verdict}.${balance}`;
}
