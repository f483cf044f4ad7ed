// The offline evaluation's charts (issue 26): predicted lifts, the position-bias curve and the track
// record. A module of their own, loaded on demand by charts/evaluation.tsx like figures.tsx is.
import { useCallback } from 'react';
import { spanOf } from './figures';
import { Plot, PlotFigure } from './plot-figure';

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const VERDICT_COLOURS = { domain: ['better', 'worse', 'unclear'], range: ['#1b7a3a', '#b3261e', '#555'] };
const SYMBOLS = { domain: ['better', 'worse', 'unclear'], range: ['triangle', 'diamond', 'circle'] };

export interface PredictedRow {
  metric: string;
  candidate: string;
  lift: number;
  low: number;
  high: number;
  /** better/worse: the whole interval on one side of zero, read in the metric's direction. */
  verdict: 'better' | 'worse' | 'unclear';
}

/**
 * Predicted relative lift per metric (a facet each) and candidate (a row each, in the same order in
 * every facet, so candidates read side by side), with the 95 % interval and a dashed zero line.
 */
export function PredictedLiftPlot({ rows, candidates, metrics }: { rows: PredictedRow[]; candidates: string[]; metrics: string[] }) {
  const make = useCallback(
    (width: number) => {
      const marginLeft = Math.min(190, Math.max(110, width * 0.32));
      return {
        marginLeft,
        marginRight: 16,
        marginTop: 26,
        x: {
          label: 'predicted relative lift vs baseline →',
          tickFormat: pct,
          grid: true,
          domain: spanOf(rows.flatMap((r) => [r.low, r.high, r.lift])),
          nice: true,
          ticks: Math.max(3, Math.floor(width / 110)),
        },
        // A facet per metric, its name above it; the candidates on the y axis, in the same order in every facet.
        fy: { domain: metrics, axis: null, padding: 0.35 },
        y: { label: null, domain: candidates, tickFormat: (c: string) => (c.length > 28 ? `${c.slice(0, 27)}…` : c) },
        color: VERDICT_COLOURS,
        symbol: { ...SYMBOLS, legend: true },
        marks: [
          Plot.frame({ fy: 'metric', stroke: '#e3e7eb' } as never),
          Plot.text(metrics, {
            fy: (m: string) => m,
            text: (m: string) => m,
            frameAnchor: 'top-left',
            textAnchor: 'start',
            dx: -marginLeft + 2,
            dy: -14,
            fontWeight: 'bold',
            fontSize: 12,
          }),
          Plot.ruleX([0], { stroke: '#555', strokeDasharray: '4 3' }),
          Plot.ruleY(rows, { fy: 'metric', y: 'candidate', x1: 'low', x2: 'high', stroke: 'verdict', strokeWidth: 2 }),
          Plot.dot(rows, { fy: 'metric', y: 'candidate', x: 'lift', symbol: 'verdict', fill: 'verdict', r: 5 }),
          Plot.tip(
            rows,
            Plot.pointerY({
              fy: 'metric',
              y: 'candidate',
              x: 'lift',
              title: (r: PredictedRow) => `${r.candidate}\n${r.metric}: ${pct(r.lift)} [${pct(r.low)}, ${pct(r.high)}]`,
            }),
          ),
        ],
      };
    },
    [rows, candidates, metrics],
  );
  return (
    <PlotFigure
      make={make}
      height={70 + metrics.length * (34 + candidates.length * 24)}
      label="Forest plot of predicted relative lifts with 95 % intervals, per metric and candidate"
    />
  );
}

export interface BiasPoint {
  position: number;
  curve: 'harvested' | 'PBM';
  estimate: number;
  low?: number;
  high?: number;
  support?: number;
}

/**
 * Examination propensity by position, relative to position 1: harvested from the logs (line, with
 * its 95 % band) next to the PBM click model's examination curve on the same window.
 */
export function PositionBiasChart({ points }: { points: BiasPoint[] }) {
  const make = useCallback(
    (width: number) => {
      const harvested = points.filter((p) => p.curve === 'harvested');
      const band = harvested.filter((p) => p.low !== undefined && p.high !== undefined);
      const top = Math.max(1, ...points.flatMap((p) => [p.estimate, p.high ?? 0]));
      return {
        marginLeft: 44,
        // Whole positions only: a tick at 1.5 means nothing.
        x: {
          label: 'position →',
          ticks: points.map((p) => p.position).filter((p, i, all) => all.indexOf(p) === i && (all.length <= width / 40 || p % 2 === 1)),
          tickFormat: (d: number) => String(d),
        },
        y: { label: '↑ examination, position 1 = 1', domain: [0, Math.min(1.5, top * 1.05)], grid: true },
        color: { domain: ['harvested', 'PBM'], range: ['#1f4e79', '#c77c02'], legend: true },
        marks: [
          Plot.areaY(band, { x: 'position', y1: 'low', y2: 'high', fill: '#1f4e79', fillOpacity: 0.16 }),
          Plot.lineY(harvested, { x: 'position', y: 'estimate', stroke: 'curve', strokeWidth: 2 }),
          Plot.lineY(
            points.filter((p) => p.curve === 'PBM'),
            { x: 'position', y: 'estimate', stroke: 'curve', strokeWidth: 2, strokeDasharray: '5 3' },
          ),
          Plot.dot(points, { x: 'position', y: 'estimate', fill: 'curve', r: 3 }),
          Plot.tip(
            points,
            Plot.pointerX({
              x: 'position',
              y: 'estimate',
              title: (p: BiasPoint) =>
                p.curve === 'PBM'
                  ? `position ${p.position}, PBM: ${p.estimate.toFixed(3)}`
                  : `position ${p.position}, harvested: ${p.estimate.toFixed(3)}` +
                    (p.low !== undefined ? ` [${p.low.toFixed(3)}, ${p.high!.toFixed(3)}]` : '') +
                    `\nsupport: ${p.support ?? 0} harvested pairs`,
            }),
          ),
          Plot.ruleY([0]),
        ],
      };
    },
    [points],
  );
  return <PlotFigure make={make} height={240} label="Position bias: harvested examination propensity with its band, and the PBM curve" />;
}

export interface TrackPoint {
  label: string;
  predicted: number;
  predictedLow: number;
  predictedHigh: number;
  observed: number;
  observedLow: number | null;
  observedHigh: number | null;
  /** inside: the online lift fell inside the predicted interval; contradicted: the sign differs. */
  outcome: 'inside' | 'outside, same sign' | 'contradicted';
}

/** Predicted against observed relative lift, both intervals as whiskers, with the identity line y = x. */
export function TrackRecordChart({ points }: { points: TrackPoint[] }) {
  const make = useCallback(
    (width: number) => {
      const span = spanOf(
        points.flatMap((p) => [p.predictedLow, p.predictedHigh, p.observed, p.observedLow ?? p.observed, p.observedHigh ?? p.observed]),
      );
      const whiskers = points.filter((p) => p.observedLow !== null && p.observedHigh !== null);
      return {
        marginLeft: 56,
        x: { label: 'predicted lift →', tickFormat: pct, domain: span, grid: true, ticks: Math.max(3, Math.floor(width / 100)) },
        y: { label: '↑ observed lift', tickFormat: pct, domain: span, grid: true },
        color: { domain: ['inside', 'outside, same sign', 'contradicted'], range: ['#1b7a3a', '#c77c02', '#b3261e'], legend: true },
        marks: [
          Plot.line(
            [
              [span[0], span[0]],
              [span[1], span[1]],
            ],
            { stroke: '#555', strokeDasharray: '4 3' },
          ),
          Plot.ruleY(points, { y: 'observed', x1: 'predictedLow', x2: 'predictedHigh', stroke: 'outcome', strokeOpacity: 0.7 }),
          Plot.ruleX(whiskers, { x: 'predicted', y1: 'observedLow', y2: 'observedHigh', stroke: 'outcome', strokeOpacity: 0.7 }),
          Plot.dot(points, { x: 'predicted', y: 'observed', fill: 'outcome', r: 5, stroke: 'white' }),
          Plot.tip(
            points,
            Plot.pointer({
              x: 'predicted',
              y: 'observed',
              title: (p: TrackPoint) => `${p.label}\npredicted ${pct(p.predicted)}, observed ${pct(p.observed)} (${p.outcome})`,
            }),
          ),
        ],
      };
    },
    [points],
  );
  return (
    <PlotFigure
      make={make}
      height={Math.min(360, 260 + points.length * 4)}
      label="Predicted against observed lift with the identity line"
    />
  );
}
