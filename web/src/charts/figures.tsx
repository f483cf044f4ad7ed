// Every chart of the dashboard, in one module that pages load on demand (Observable Plot and the
// d3 parts it uses are most of the dashboard's weight, and only detail pages draw).
import { useCallback, useMemo } from 'react';
import { DAY_MS } from '../time';
import { Plot, PlotFigure } from './plot-figure';

export interface ForestRow {
  label: string;
  lift: number;
  low: number;
  high: number;
  verdict: 'better' | 'worse' | 'not significant';
}

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const num = (v: number) => String(Number(v.toPrecision(3)));
const tickFor = (scale: string) => (scale === 'relative' ? pct : num);
const SYMBOL = { better: 'triangle', worse: 'diamond', 'not significant': 'circle' } as const;

/**
 * An x domain that holds every interval and zero, with a little room at both ends: Plot's default
 * domain follows the dots, so an interval wider than the others ran off the plot.
 */
export function spanOf(values: number[]): [number, number] {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const pad = (high - low || 1) * 0.05;
  return [low - pad, high + pad];
}

/** Lift of each treatment and metric on the results' scale with its interval; zero marked; symbol and label carry the verdict. */
export function ForestPlot({ rows, scale = 'relative' }: { rows: ForestRow[]; scale?: string }) {
  const make = useCallback(
    (width: number) => ({
      marginLeft: Math.min(180, Math.max(90, width * 0.3)),
      marginRight: 20,
      x: {
        label: `${scale} lift vs control →`,
        tickFormat: tickFor(scale),
        grid: true,
        domain: spanOf(rows.flatMap((r) => [r.low, r.high, r.lift])),
        nice: true,
        ticks: Math.max(3, Math.floor(width / 110)),
      },
      y: { label: null, domain: rows.map((r) => r.label) },
      symbol: { domain: Object.keys(SYMBOL), range: Object.values(SYMBOL), legend: true },
      marks: [
        Plot.ruleX([0], { stroke: '#555', strokeDasharray: '4 3' }),
        Plot.ruleY(rows, { y: 'label', x1: 'low', x2: 'high', stroke: 'verdict', strokeWidth: 2 }),
        Plot.dot(rows, { y: 'label', x: 'lift', symbol: 'verdict', fill: 'verdict', r: 5 }),
      ],
      color: { domain: ['better', 'worse', 'not significant'], range: ['#1b7a3a', '#b3261e', '#555'] },
    }),
    [rows, scale],
  );
  return <PlotFigure make={make} height={60 + rows.length * 36} label={`Forest plot of ${scale} lift with intervals per metric`} />;
}

export interface LiftPoint {
  date: Date;
  variant: string;
  lift: number;
  low: number;
  high: number;
}

/** Hours between ticks so that labels keep about 80 px each. */
function hourStep(points: LiftPoint[], width: number): number {
  const times = points.map((p) => p.date.getTime());
  const hours = (Math.max(...times) - Math.min(...times)) / 3_600_000;
  const fit = Math.max(1, Math.floor(width / 80));
  return [1, 2, 3, 6, 12].find((step) => hours / step <= fit) ?? 24;
}

/** Cumulative lift on the results' scale by exposure day (or hour, on a phase's first days) with its interval band, one line per treatment. */
export function LiftSeriesChart({
  points,
  metric,
  scale = 'relative',
  step = 'day',
}: {
  points: LiftPoint[];
  metric: string;
  scale?: string;
  step?: 'day' | 'hour';
}) {
  const make = useCallback(
    (width: number) => ({
      marginLeft: 56,
      x: {
        type: 'utc' as const,
        label: step === 'hour' ? 'exposure hour (UTC) →' : null,
        ...(step === 'hour'
          ? // Whole hours (every n hours when they would crowd), in Plot's own time format: the date where it changes.
            { ticks: `${hourStep(points, width)} hours` }
          : { ticks: 'day' as const, tickFormat: '%b %d' }),
      },
      y: {
        label: `${metric}: ${scale} lift (cumulative)`,
        tickFormat: tickFor(scale),
        grid: true,
        domain: spanOf(points.flatMap((p) => [p.low, p.high])),
      },
      color: { legend: true },
      marks: [
        Plot.ruleY([0], { stroke: '#555', strokeDasharray: '4 3' }),
        Plot.areaY(points, { x: 'date', y1: 'low', y2: 'high', fill: 'variant', fillOpacity: 0.18 }),
        Plot.ruleX(points, { x: 'date', y1: 'low', y2: 'high', stroke: 'variant', strokeOpacity: 0.5 }),
        Plot.lineY(points, { x: 'date', y: 'lift', stroke: 'variant', strokeWidth: 2 }),
        Plot.dot(points, { x: 'date', y: 'lift', fill: 'variant', r: 2.5 }),
      ],
    }),
    [points, metric, scale, step],
  );
  return <PlotFigure make={make} height={240} label={`Cumulative ${scale} lift of ${metric} by exposure ${step} with its interval band`} />;
}

/**
 * Versions retrained on the same data can score exactly alike: Plot then draws a zero-height axis
 * with one tick at full precision ("0.875294"). Give a flat series a small band around its value.
 */
function paddedIfFlat(values: number[]): { domain?: [number, number] } {
  if (values.length === 0) return {};
  const low = Math.min(...values);
  const high = Math.max(...values);
  if (high - low > 1e-9) return {};
  const pad = Math.max(0.01, Math.abs(low) * 0.05);
  return { domain: [low - pad, high + pad] };
}

/** A model's key metric across its versions; the active one ringed. */
export function VersionsChart({ rows, metric }: { rows: { version: number; value: number; active: boolean }[]; metric: string }) {
  const make = useCallback(
    () => ({
      marginLeft: 64,
      x: { type: 'point' as const, label: 'version →', domain: rows.map((r) => r.version), tickFormat: (d: number) => `v${d}` },
      y: { label: metric, grid: true, zero: false, ...paddedIfFlat(rows.map((r) => r.value)) },
      marks: [
        Plot.lineY(rows, { x: 'version', y: 'value', stroke: '#1f4e79' }),
        Plot.dot(rows, { x: 'version', y: 'value', fill: '#1f4e79', r: 3 }),
        Plot.dot(
          rows.filter((r) => r.active),
          { x: 'version', y: 'value', r: 8, stroke: '#1b7a3a', strokeWidth: 2 },
        ),
        Plot.text(
          rows.filter((r) => r.active),
          { x: 'version', y: 'value', text: () => 'active', dy: -14 },
        ),
      ],
    }),
    [rows, metric],
  );
  return <PlotFigure make={make} height={220} label={`${metric} across versions`} />;
}

/** P(examined) by rank, as the click model estimated it. */
export function ExaminationChart({ examination }: { examination: number[] }) {
  const make = useCallback(() => {
    const rows = examination.map((value, i) => ({ rank: i + 1, value }));
    return {
      marginLeft: 48,
      x: { label: 'rank →', type: 'band' as const },
      y: { label: 'P(examined)', domain: [0, 1], grid: true },
      marks: [Plot.barY(rows, { x: 'rank', y: 'value', fill: '#1f4e79' }), Plot.ruleY([0])],
    };
  }, [examination]);
  return <PlotFigure make={make} height={220} label="Examination probability by rank" />;
}

/** NDCG@k of the ranker against the original order and a random order on the same held-out queries. */
export function NdcgChart({ rows }: { rows: { k: string; system: string; value: number }[] }) {
  const make = useCallback(
    () => ({
      marginLeft: 40,
      fx: {
        label: 'NDCG at k',
        domain: [...new Set(rows.map((r) => r.k))].sort((a, b) => Number(a) - Number(b)),
        tickFormat: (k: string) => `@${k}`,
      },
      x: { axis: null, domain: ['ranker', 'original order', 'random order'] },
      y: { label: 'NDCG', domain: [0, 1], grid: true },
      color: { legend: true, domain: ['ranker', 'original order', 'random order'], range: ['#1f4e79', '#c77c02', '#999'] },
      marks: [Plot.barY(rows, { fx: 'k', x: 'system', y: 'value', fill: 'system' }), Plot.ruleY([0])],
    }),
    [rows],
  );
  return <PlotFigure make={make} height={240} label="NDCG of the ranker against the original and a random order" />;
}

/** Share of total gain per feature, largest first. */
export function FeatureImportanceChart({ rows }: { rows: { feature: string; share: number }[] }) {
  const make = useCallback(
    (width: number) => ({
      marginLeft: Math.min(170, Math.max(90, width * 0.35)),
      x: { label: 'share of total gain →', tickFormat: pct, grid: true },
      y: { label: null, domain: rows.map((r) => r.feature) },
      marks: [Plot.barX(rows, { y: 'feature', x: 'share', fill: '#1f4e79' }), Plot.ruleX([0])],
    }),
    [rows],
  );
  return <PlotFigure make={make} height={40 + rows.length * 22} label="Feature importance by share of gain" />;
}

/** Searches (bars) and CTR (line, right-hand scale in the label) over time, for search analytics. */
export function SearchesCtrChart({ points }: { points: { date: Date; searches: number; ctr: number | null }[] }) {
  const make = useCallback(() => {
    const maxSearches = Math.max(1, ...points.map((p) => p.searches));
    const scaled = points.filter((p) => p.ctr !== null).map((p) => ({ date: p.date, value: (p.ctr ?? 0) * maxSearches }));
    return {
      marginLeft: 56,
      marginRight: 56,
      x: { type: 'utc' as const, label: null },
      y: { label: 'searches', grid: true },
      marks: [
        Plot.rectY(points, {
          x: 'date',
          y: 'searches',
          interval: points.length > 1 ? points[1]!.date.getTime() - points[0]!.date.getTime() : DAY_MS,
          fill: '#9ab8d6',
        } as never),
        Plot.lineY(scaled, { x: 'date', y: 'value', stroke: '#c77c02', strokeWidth: 2 }),
        Plot.axisY({ anchor: 'left', label: 'searches' } as never),
        Plot.axisY({ anchor: 'right', label: 'CTR', tickFormat: (v: number) => pct(v / maxSearches), ticks: 4 } as never),
        Plot.ruleY([0]),
      ],
    };
  }, [points]);
  return <PlotFigure make={make} height={240} label="Searches per interval as bars and click-through rate as a line" />;
}

/** Share of first clicks at positions 1…20 and beyond. */
export function PositionHistogram({ bars }: { bars: { position: string; share: number | null }[] }) {
  const make = useCallback(
    () => ({
      marginLeft: 48,
      x: { label: 'position of the first click →', type: 'band' as const, domain: bars.map((b) => b.position) },
      y: { label: 'share of first clicks', tickFormat: pct, grid: true },
      marks: [Plot.barY(bars, { x: 'position', y: (b: { share: number | null }) => b.share ?? 0, fill: '#1f4e79' }), Plot.ruleY([0])],
    }),
    [bars],
  );
  return <PlotFigure make={make} height={220} label="Histogram of first-click positions" />;
}

/**
 * CTR next to the click model's relevance, per result, as grouped bars on one 0–100 % axis (both are
 * probabilities: clicks per impression, and the chance a seen result is clicked): results clicked
 * only because they are on top show a CTR bar far longer than their relevance bar.
 */
export function CtrRelevanceChart({ rows }: { rows: { resultId: string; measure: string; value: number }[] }) {
  const results = useMemo(() => [...new Set(rows.map((r) => r.resultId))], [rows]);
  const make = useCallback(
    (width: number) => ({
      marginLeft: Math.min(160, Math.max(80, width * 0.25)),
      marginRight: 44,
      x: { label: 'share →', domain: [0, 1], tickFormat: pct, grid: true, ticks: Math.max(3, Math.floor(width / 110)) },
      y: { axis: null, domain: ['CTR', 'relevance'] },
      fy: { axis: 'left' as const, label: null, domain: results },
      color: { legend: true, domain: ['CTR', 'relevance'], range: ['#c77c02', '#1f4e79'] },
      marks: [
        Plot.barX(rows, { fy: 'resultId', y: 'measure', x: 'value', fill: 'measure', insetTop: 1, insetBottom: 1 }),
        Plot.text(rows, {
          fy: 'resultId',
          y: 'measure',
          x: 'value',
          text: (r: { value: number }) => pct(r.value),
          dx: 4,
          textAnchor: 'start',
        }),
        Plot.ruleX([0]),
      ],
    }),
    [rows, results],
  );
  return <PlotFigure make={make} height={60 + results.length * 40} label="CTR and click-model relevance per result, side by side" />;
}

export interface OutcomeRow {
  pair: string;
  outcome: 'wins' | 'ties' | 'losses';
  queries: number;
}

/** Interleaving: each pair's queries split into the first-named ranker's wins, ties and losses (the page names the treatment first). */
export function OutcomeBarsChart({ rows, pairs }: { rows: OutcomeRow[]; pairs: string[] }) {
  const make = useCallback(
    (width: number) => ({
      marginLeft: Math.min(220, Math.max(100, width * 0.35)),
      x: { label: 'queries →', grid: true },
      y: { label: null, domain: pairs },
      color: { domain: ['wins', 'ties', 'losses'], range: ['#1b7a3a', '#bbb', '#b3261e'], legend: true },
      marks: [Plot.barX(rows, { y: 'pair', x: 'queries', fill: 'outcome', order: ['wins', 'ties', 'losses'] }), Plot.ruleX([0])],
    }),
    [rows, pairs],
  );
  return <PlotFigure make={make} height={70 + pairs.length * 40} label="Wins, ties and losses per pair of rankers" />;
}

export interface PreferenceRow {
  pair: string;
  preference: number;
  low: number;
  high: number;
  verdict: 'better' | 'worse' | 'not significant';
}

/** Interleaving: each pair's preference with its interval; zero (no preference) marked. */
export function PreferenceChart({ rows }: { rows: PreferenceRow[] }) {
  const make = useCallback(
    (width: number) => ({
      marginLeft: Math.min(220, Math.max(100, width * 0.35)),
      marginRight: 20,
      x: {
        label: 'preference for the first-named ranker →',
        tickFormat: pct,
        grid: true,
        domain: spanOf(rows.flatMap((r) => [r.low, r.high])),
        nice: true,
        ticks: Math.max(3, Math.floor(width / 110)),
      },
      y: { label: null, domain: rows.map((r) => r.pair) },
      symbol: { domain: Object.keys(SYMBOL), range: Object.values(SYMBOL), legend: true },
      color: { domain: ['better', 'worse', 'not significant'], range: ['#1b7a3a', '#b3261e', '#555'] },
      marks: [
        Plot.ruleX([0], { stroke: '#555', strokeDasharray: '4 3' }),
        Plot.ruleY(rows, { y: 'pair', x1: 'low', x2: 'high', stroke: 'verdict', strokeWidth: 2 }),
        Plot.dot(rows, { y: 'pair', x: 'preference', symbol: 'verdict', fill: 'verdict', r: 5 }),
      ],
    }),
    [rows],
  );
  return <PlotFigure make={make} height={60 + rows.length * 36} label="Preference per pair of rankers with intervals" />;
}

export interface HeatCell {
  row: string;
  column: string;
  preference: number | null;
}

/** Multileaving: preference of the row's ranker over the column's. */
export function PreferenceHeatmap({ cells, order }: { cells: HeatCell[]; order: string[] }) {
  const make = useCallback(
    () => ({
      marginLeft: 110,
      marginBottom: 50,
      x: { label: 'against →', domain: order, tickRotate: -30 },
      y: { label: 'ranker', domain: order },
      color: { type: 'diverging' as const, scheme: 'PiYG' as const, legend: true, label: 'preference', tickFormat: pct },
      marks: [
        Plot.cell(
          cells.filter((c) => c.preference !== null),
          { x: 'column', y: 'row', fill: 'preference', inset: 1 },
        ),
        Plot.text(
          cells.filter((c) => c.preference !== null),
          // Light text on the strong colours at both ends of the scale, dark text in the pale middle.
          {
            x: 'column',
            y: 'row',
            text: (d: HeatCell) => pct(d.preference!),
            fill: (d: HeatCell) => (Math.abs(d.preference!) > 0.15 ? 'white' : 'black'),
          },
        ),
      ],
    }),
    [cells, order],
  );
  return <PlotFigure make={make} height={90 + order.length * 44} label="Pairwise preference matrix of the multileaved rankers" />;
}
