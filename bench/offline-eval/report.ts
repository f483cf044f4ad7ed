/**
 * Output: aligned Markdown tables (readable on the console and pasted unchanged into
 * docs/benchmarks.md), collected so the run can be written to last-run.txt.
 */
export class Report {
  readonly lines: string[] = [];

  print(text = ''): void {
    this.lines.push(text);
    console.log(text);
  }

  /** A Markdown table padded to column width; columns whose header starts with a space are right-aligned. */
  table(headers: readonly string[], rows: readonly (readonly string[])[]): void {
    const right = headers.map((h) => h.startsWith(' '));
    const heads = headers.map((h) => h.trim());
    const widths = heads.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
    const line = (cells: readonly string[]): string =>
      '| ' + cells.map((cell, c) => (right[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join(' | ') + ' |';
    this.print(line(heads));
    this.print('|' + widths.map((w, c) => (right[c] ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|');
    for (const r of rows) this.print(line(r));
    this.print();
  }
}

export function fixed(x: number, digits = 3): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '–';
}

export function signed(x: number, digits = 4): string {
  return Number.isFinite(x) ? (x >= 0 ? '+' : '') + x.toFixed(digits) : '–';
}

export function thousands(n: number): string {
  return n.toLocaleString('en-US').replace(/,/g, ' ');
}

export function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}

/** A goal cell: the figure and whether it is met. */
export function goal(x: number, ok: (v: number) => boolean, digits = 2): string {
  if (!Number.isFinite(x)) return '–';
  return `${x.toFixed(digits)}${ok(x) ? '' : ' ✗'}`;
}
