/** Plain-text tables of the bench: one row per cell, one column per method; means ± sd over seeds. */
import type { CellResult, Score } from './cell.js';

export function mean(xs: readonly number[]): number {
  const v = xs.filter((x) => Number.isFinite(x));
  return v.length === 0 ? Number.NaN : v.reduce((a, b) => a + b, 0) / v.length;
}

export function sd(xs: readonly number[]): number {
  const v = xs.filter((x) => Number.isFinite(x));
  if (v.length < 2) return Number.NaN;
  const m = mean(v);
  return Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1));
}

function fmt(xs: readonly number[]): string {
  const m = mean(xs);
  if (!Number.isFinite(m)) return '—';
  return xs.length > 1 ? `${m.toFixed(3)}±${sd(xs).toFixed(3)}` : m.toFixed(3);
}

export function render(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  return [line(headers), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(line)].join('\n');
}

/** Cells with the same label (seeds) are one row; `pick` chooses the figure shown. */
export function methodTable(
  results: readonly CellResult[],
  methods: readonly string[],
  pick: (s: Score) => number,
  withTail = false,
): string {
  const byLabel = new Map<string, CellResult[]>();
  for (const r of results) {
    const list = byLabel.get(r.label) ?? [];
    list.push(r);
    byLabel.set(r.label, list);
  }
  const headers = ['users, logger, sessions', 'seeds', ...(withTail ? ['tail q'] : []), ...methods];
  const rows = [...byLabel].map(([label, cells]) => [
    label,
    String(cells.length),
    ...(withTail ? [fmt(cells.map((c) => c.tailQueries))] : []),
    ...methods.map((m) => fmt(cells.map((c) => (c.scores[m] ? pick(c.scores[m]) : Number.NaN)))),
  ]);
  return render(headers, rows);
}
