import { median } from '../support/stats.js';
import type { PairMeasurement, Replicates } from './measure.js';
import { formatTable } from './table.js';

const pct = (v: number | null) => (v === null ? 'n/a' : `${(100 * v).toFixed(1)} %`);
const rep = (r: Replicates) => (r.runs === 0 ? '–' : `${r.significant}/${r.runs}`);
const right = (r: Replicates) => (r.significant === 0 ? '–' : `${r.correct}/${r.significant}`);

function pooled(rs: readonly Replicates[]) {
  const runs = rs.reduce((s, r) => s + r.runs, 0);
  const sig = rs.reduce((s, r) => s + r.significant, 0);
  const ok = rs.reduce((s, r) => s + r.correct, 0);
  const withSig = rs.filter((r) => r.significant > 0);
  const pairsRight = withSig.filter((r) => r.correct / r.significant >= 0.95).length;
  return {
    text: `power reached ${pct(runs > 0 ? sig / runs : null)}, significant results naming the truly better ranker ${pct(sig > 0 ? ok / sig : null)} (${ok}/${sig}), pairs where ≥ 95 % of them did: ${pairsRight}/${withSig.length}`,
    pairsRight,
    pairsWithSig: withSig.length,
  };
}

/** The table (one row per pair + median) and the verdicts against the goals. */
export function report(rows: readonly PairMeasurement[]): string {
  const table = rows.map((m) => {
    const bestAb = Math.min(m.ctr.queries, m.mrr.queries);
    return [
      `${m.better.name} > ${m.worse.name}`,
      m.gap.toFixed(4),
      m.interleavingQueries,
      `${m.ctr.queries}${m.ctr.wrongWay ? ' (wrong way)' : ''}`,
      `${m.mrr.queries}${m.mrr.wrongWay ? ' (wrong way)' : ''}`,
      (bestAb / m.interleavingQueries).toFixed(1),
      rep(m.il),
      right(m.il),
      rep(m.ctrReplicates),
      right(m.ctrReplicates),
      rep(m.mrrReplicates),
      right(m.mrrReplicates),
    ];
  });
  const ratios = rows.map((m) => Math.min(m.ctr.queries, m.mrr.queries) / m.interleavingQueries);
  table.push([
    'median',
    median(rows.map((m) => m.gap)).toFixed(4),
    Math.round(median(rows.map((m) => m.interleavingQueries))),
    Math.round(median(rows.map((m) => m.ctr.queries))),
    Math.round(median(rows.map((m) => m.mrr.queries))),
    median(ratios).toFixed(1),
    ...Array<string>(6).fill(''),
  ]);
  const headers = [
    'pair (truth)',
    'ΔNDCG@10',
    'interleaving',
    'A/B ctr',
    'A/B mrr',
    'best A/B ÷ IL',
    'IL sig',
    'IL right',
    'ctr sig',
    'ctr right',
    'mrr sig',
    'mrr right',
  ];
  const il = pooled(rows.map((m) => m.il));
  const lines = [
    formatTable(headers, table),
    '',
    `Median over pairs of (better A/B metric's searches ÷ interleaving's): ${median(ratios).toFixed(1)}× — goal ≥ 10×: ${median(ratios) >= 10 ? 'met' : 'NOT met'}.`,
    `Interleaving replicates: ${il.text} — goal ≥ 95 % of pairs: ${il.pairsWithSig > 0 && il.pairsRight / il.pairsWithSig >= 0.95 ? 'met' : 'NOT met'}.`,
    `A/B ctr replicates: ${pooled(rows.map((m) => m.ctrReplicates)).text}.`,
    `A/B mrr replicates: ${pooled(rows.map((m) => m.mrrReplicates)).text}.`,
  ];
  return lines.join('\n');
}
