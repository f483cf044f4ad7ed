/**
 * The import's progress: on a terminal a bar redrawn in place (at most every 200 ms) with the
 * counts, items/s and, when the input's size is known, the share done and the ETA; otherwise a
 * plain line every 5 s (and a last one), for logs.
 */
export interface ProgressTotals {
  imported: number;
  duplicates: number;
  rejected: number;
}

export interface ProgressStream {
  isTTY?: boolean;
  /** Terminal width: the bar line is cut to it so it never wraps. */
  columns?: number;
  write(text: string): void;
}

export interface ProgressOptions {
  /** Minimum time between two redraws (ms); default 200 on a terminal, 5000 otherwise. */
  intervalMs?: number;
  now?: () => number;
}

/** 75 s → "1m15s", 3725 s → "1h02m". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export class ImportProgress {
  private last = -Infinity;
  private lastCounts = '';
  private readonly started: number;
  private readonly interval: number;
  private readonly now: () => number;

  constructor(
    /** Bytes of the input, when known (a file; not stdin). */
    private readonly total: number | undefined,
    private readonly stream: ProgressStream,
    options: ProgressOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
    this.interval = options.intervalMs ?? (stream.isTTY ? 200 : 5000);
  }

  /** `bytes`: how far into the input the committed batches reach. */
  update(bytes: number, totals: ProgressTotals, final = false): void {
    const now = this.now();
    if (!final && now - this.last < this.interval) return;
    this.last = now;
    const seconds = Math.max(0.001, (now - this.started) / 1000);
    const rate = Math.round((totals.imported + totals.duplicates) / seconds);
    const done = this.total ? Math.min(1, bytes / this.total) : undefined;
    const eta = done !== undefined && done > 0 && done < 1 ? ` ETA ${formatDuration((seconds / done) * (1 - done))}` : '';
    const counts = `${totals.imported} imported, ${totals.duplicates} duplicates, ${totals.rejected} rejected`;
    const speed = `${rate.toLocaleString('en-US')} items/s`;
    const percent = done === undefined ? '' : `${(done * 100).toFixed(1)}% `;
    if (this.stream.isTTY) {
      const text = `${percent}${speed}${eta} · ${counts}`;
      const columns = this.stream.columns ?? 80;
      // The bar takes what the text leaves of the line, between 10 and 40 cells.
      const width = done === undefined ? 0 : Math.max(10, Math.min(40, columns - text.length - 4));
      const bar = done === undefined ? '' : `[${'#'.repeat(Math.round(done * width)).padEnd(width, '.')}] `;
      this.stream.write(`\r${`${bar}${text}`.slice(0, Math.max(1, columns - 1))}\x1b[K${final ? '\n' : ''}`);
    } else if (!(final && this.lastCounts === counts)) {
      this.stream.write(`import: ${percent}${counts}, ${speed}${eta}\n`);
    }
    this.lastCounts = counts;
  }
}
