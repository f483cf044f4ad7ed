import { percent } from '../../format';
import { DAY_MS } from '../../time';

export interface Filters {
  days: number;
  dimension: '' | 'deviceType' | 'searchType' | 'language' | 'category';
  value: string;
}

/**
 * The API's window: its default (the last 7 days before the server's now) until the first answer
 * names the window's end; other lengths count back from that end, so the page follows the server's clock.
 */
export function windowQuery(f: Filters, anchor: string | undefined) {
  const dims = f.dimension && f.value ? { dimension: f.dimension, value: f.value } : {};
  if (f.days === 7 || anchor === undefined) return dims;
  return { ...dims, from: new Date(Date.parse(anchor) - f.days * DAY_MS).toISOString(), to: anchor };
}

interface Change {
  previous: number | null;
  delta: number | null;
  significant: boolean;
}

/** "▲ +12.50 %" for a significant change, the plain delta otherwise, "—" without a previous window. */
export function changeText(label: string, c: Change): string {
  if (c.delta === null) return `${label} —`;
  const arrow = c.significant ? (c.delta > 0 ? '▲ ' : '▼ ') : '';
  return `${label} ${arrow}${percent(c.delta, 2, true)}`;
}

export function changeMarker(change: { ctr: Change; abandonmentRate: Change }) {
  const significant = change.ctr.significant || change.abandonmentRate.significant;
  return (
    <span
      className={significant ? 'badge badge-warn' : 'muted small'}
      title={significant ? 'significant change (Holm-corrected)' : 'within noise'}
    >
      {changeText('CTR', change.ctr)} · {changeText('abandonment', change.abandonmentRate)}
    </span>
  );
}

/** A small inline trend line (no chart library: one per table row). */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const w = 80;
  const h = 20;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? w / (values.length - 1) : w;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(h - 1 - (v / max) * (h - 2)).toFixed(1)}`).join(' ');
  return (
    <svg className="sparkline" width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={label}>
      <polyline points={points} fill="none" stroke="#1f4e79" strokeWidth="1.5" />
    </svg>
  );
}
