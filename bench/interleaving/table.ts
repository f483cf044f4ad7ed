/** A Markdown table with padded columns (numbers right-aligned), as the other benchmarks print. */
export function formatTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((r) => r.map((c) => String(c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.every((r) => typeof r[i] === 'number' || /^[\d.–-]/.test(String(r[i] ?? '')) || r[i] === ''));
  const line = (r: readonly string[]) =>
    '| ' + r.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ') + ' |';
  return [
    line(headers),
    '|' + widths.map((w, i) => (numeric[i] ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|',
    ...cells.map(line),
  ].join('\n');
}
