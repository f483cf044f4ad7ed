import { useEffect, useRef, useState } from 'react';
import { integer } from '../format';

const ACTIONS = [
  { key: 'impressions', colour: '#9ab8d6' },
  { key: 'clicks', colour: '#1f4e79' },
  { key: 'conversions', colour: '#c77c02' },
] as const;

export type DayVolume = { day: string; impressions: number; clicks: number; conversions: number };

/** Round tick values (1, 2 or 5 × 10^k apart) from 0 to at least max: what a reader counts against. */
export function volumeTicks(max: number, count = 4): number[] {
  if (max <= 0) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) ticks.push(v);
  return ticks;
}

const compact = (v: number) => (v >= 10_000 ? `${Number((v / 1000).toPrecision(3))}k` : integer(v));

/**
 * Grouped bars per day with a y axis of counts, drawn as plain SVG at the container's width (text
 * keeps its size on a phone and on a wide screen): the overview is the first page a visitor sees, and
 * the first visit downloads no chart library (Observable Plot loads with the pages that need it).
 */
export function VolumeBars({ days }: { days: DayVolume[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(200, Math.floor(entry!.contentRect.width))));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  const ticks = volumeTicks(Math.max(...days.flatMap((d) => [d.impressions, d.clicks, d.conversions])));
  const top = ticks.at(-1)!;
  const [left, height, pad] = [48, 160, 22];
  const slot = (width - left) / Math.max(1, days.length);
  const bar = Math.max(2, (slot - 8) / 3);
  const y = (v: number) => pad + height - (v / top) * height;
  return (
    <div className="plot" ref={ref} data-testid="volume-chart">
      <p className="muted small">
        {ACTIONS.map((a) => (
          <span key={a.key} style={{ marginRight: '1em' }}>
            <span aria-hidden="true" style={{ display: 'inline-block', width: 10, height: 10, background: a.colour, marginRight: 4 }} />
            {a.key}
          </span>
        ))}
      </p>
      <svg
        viewBox={`0 0 ${width} ${height + pad + 22}`}
        width={width}
        height={height + pad + 22}
        role="img"
        aria-label="Feedback per day by action: impressions, clicks and conversions"
        fontSize="11"
      >
        <g data-testid="volume-y-axis">
          {ticks.map((v) => (
            <g key={v}>
              <line x1={left} x2={width} y1={y(v)} y2={y(v)} stroke="#e3e7eb" />
              <text x={left - 6} y={y(v)} dy="0.32em" textAnchor="end" fill="#5b6570">
                {compact(v)}
              </text>
            </g>
          ))}
          <text x={0} y={6} fill="#5b6570" dy="0.32em">
            ↑ items
          </text>
        </g>
        {days.map((d, i) =>
          ACTIONS.map((a, j) => {
            const h = (d[a.key] / top) * height;
            return (
              <rect
                key={`${d.day}-${a.key}`}
                x={left + i * slot + 4 + j * bar}
                y={pad + height - h}
                width={bar - 1}
                height={h}
                fill={a.colour}
              >
                <title>{`${d.day}: ${integer(d[a.key])} ${a.key}`}</title>
              </rect>
            );
          }),
        )}
        <line x1={left} x2={width} y1={pad + height} y2={pad + height} stroke="#555" />
        {days.map((d, i) => (
          <text key={d.day} x={left + i * slot + slot / 2} y={pad + height + 16} textAnchor="middle">
            {d.day}
          </text>
        ))}
      </svg>
    </div>
  );
}
