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

/**
 * Paired differences a − b over the seeds of each cell (same log, same split): mean ± sd, the
 * run-to-run spread the goals compare against. `a` may name several methods: the best of them per
 * seed, chosen on the validation queries (so the choice never sees the test labels).
 */
export function pairedTable(
  results: readonly CellResult[],
  pairs: readonly [string[], string[], string][],
  pick: (s: Score) => number,
): string {
  const byLabel = new Map<string, CellResult[]>();
  for (const r of results) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  const bestOf = (c: CellResult, names: string[]): number => {
    const scored = names.map((n) => c.scores[n]).filter((s): s is Score => s !== undefined && Number.isFinite(s.valid));
    if (scored.length === 0) return Number.NaN;
    return pick(scored.reduce((a, b) => (b.valid > a.valid ? b : a)));
  };
  const headers = ['users, logger, sessions', 'seeds', ...pairs.map((p) => p[2])];
  const rows = [...byLabel]
    .filter(([, cells]) => cells.length > 1)
    .map(([label, cells]) => [
      label,
      String(cells.length),
      ...pairs.map(([a, b]) => {
        const d = cells.map((c) => bestOf(c, a) - bestOf(c, b)).filter((x) => Number.isFinite(x));
        return d.length === 0 ? '—' : `${mean(d) >= 0 ? '+' : ''}${mean(d).toFixed(3)}±${sd(d).toFixed(3)}`;
      }),
    ]);
  return render(headers, rows);
}
