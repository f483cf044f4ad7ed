// The model page's chart of how a ranker trained on clicks corrected for position (issue 27): a
// chunk of its own, loaded on demand like the offline evaluation's figures.
import { useCallback } from 'react';
import { Plot, PlotFigure } from './plot-figure';

export interface CurveRow {
  position: number;
  /** 't+ clicked', 't− unclicked' (learned by Unbiased LambdaMART) or 'propensity' (ips). */
  series: string;
  value: number;
}

const COLOURS = { 't+ clicked': '#1f4e79', 't− unclicked': '#c77c02', propensity: '#1f4e79' } as Record<string, string>;
const fixed = (v: number) => v.toFixed(3);

/**
 * Position bias by position relative to position 1, one line per series; for ips the clip is drawn
 * as a dashed reference line (propensities under it were raised to it, capping a click's weight).
 */
export function TrainingBiasChart({ rows, clip }: { rows: CurveRow[]; clip: number | null }) {
  const make = useCallback(
    (width: number) => {
      const series = [...new Set(rows.map((r) => r.series))];
      const positions = [...new Set(rows.map((r) => r.position))].sort((a, b) => a - b);
      const top = Math.max(1, clip ?? 0, ...rows.map((r) => r.value));
      return {
        marginLeft: 48,
        marginRight: clip === null ? 20 : 64,
        // Whole positions only; every other one when a phone has no room for all.
        x: {
          label: 'position →',
          ticks: positions.filter((p) => positions.length <= width / 36 || p % 2 === 1),
          tickFormat: (d: number) => String(d),
        },
        y: { label: '↑ relative to position 1', domain: [0, top * 1.08], grid: true },
        color: { domain: series, range: series.map((s) => COLOURS[s] ?? '#555'), legend: true },
        marks: [
          Plot.ruleY([0]),
          ...(clip === null
            ? []
            : [
                Plot.ruleY([clip], { stroke: '#b3261e', strokeDasharray: '5 4' }),
                Plot.text([clip], {
                  y: (c: number) => c,
                  text: (c: number) => `clip ${c}`,
                  frameAnchor: 'right',
                  textAnchor: 'start',
                  dx: 6,
                  fill: '#b3261e',
                }),
              ]),
          // One line per series; t− dashed so the two read apart without colour too.
          ...series.map((name) =>
            Plot.lineY(
              rows.filter((r) => r.series === name),
              {
                x: 'position',
                y: 'value',
                stroke: 'series',
                strokeWidth: 2,
                ...(name === 't− unclicked' ? { strokeDasharray: '6 3' } : {}),
              },
            ),
          ),
          Plot.dot(rows, { x: 'position', y: 'value', fill: 'series', r: 3.5 }),
          Plot.tip(
            rows,
            Plot.pointerX({ x: 'position', y: 'value', title: (r: CurveRow) => `position ${r.position}, ${r.series}: ${fixed(r.value)}` }),
          ),
        ],
      };
    },
    [rows, clip],
  );
  return (
    <PlotFigure
      make={make}
      height={240}
      label={clip === null ? 'Position bias by position, relative to position 1' : `Propensity by position with the clip at ${clip}`}
    />
  );
}
