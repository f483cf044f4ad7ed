import type { ImportBatchReport, ImportFormat } from '../feedback/feedback.module.js';
import type { Importer } from './importer.js';
import type { Line } from './line-reader.js';

/** What the service answered to one request: the batch's report, or why it refused it. */
type Answer =
  | { ok: true; report: ImportBatchReport }
  | { ok: false; status: number; message: string; details: { path?: string; message?: string }[]; text: string };

/** The line (index in the request's `lines`) a validation detail names, e.g. `/lines/3/text` → 3. */
const LINE_PATH = /^\/lines\/(\d+)(\/|$)/;

/**
 * Batches to POST /api/cortex/feedback/import of a running service, retried with backoff on 429,
 * 5xx and no answer. A CSV file's header travels with every batch: the command reads it (useHeader).
 *
 * A batch the service refuses because of its size (413) is split in halves until the line that
 * alone is too large is found; that line, and a line a 400 names (`/lines/<i>/…`, e.g. longer
 * than a line may be), is rejected with the service's reason and the rest is imported — as the
 * direct import rejects a bad line without stopping.
 */
export class HttpImporter implements Importer {
  constructor(
    private readonly url: string,
    private readonly key: string | undefined,
    private readonly format: ImportFormat,
    public csvHeader: string[] | undefined,
  ) {}

  useHeader(header: string[]): void {
    this.csvHeader = header;
  }

  prepare(lines: Line[]): () => Promise<ImportBatchReport> {
    // Serialised now, so the next batch is read while this one travels.
    const body = this.body(lines);
    return () => this.send(lines, body);
  }

  async close(): Promise<void> {}

  private body(lines: Line[]): string {
    return JSON.stringify({
      format: this.format,
      ...(this.csvHeader ? { csvHeader: this.csvHeader } : {}),
      lines: lines.map((l) => ({ line: l.line, text: l.text })),
    });
  }

  private async send(lines: Line[], body = this.body(lines)): Promise<ImportBatchReport> {
    const answer = await this.post(body);
    if (answer.ok) return answer.report;
    const refused = `${answer.status} ${answer.message}`;
    if (answer.status === 413) {
      if (lines.length === 1)
        return rejectedReport(lines, (l) => `${byteLength(l)} bytes: too large for one request to the service (${refused})`);
      const half = Math.ceil(lines.length / 2);
      return merge(await this.send(lines.slice(0, half)), await this.send(lines.slice(half)));
    }
    if (answer.status === 400) {
      const named = new Map<number, string>();
      for (const d of answer.details) {
        const index = Number(LINE_PATH.exec(d.path ?? '')?.[1] ?? NaN);
        if (index >= 0 && index < lines.length && !named.has(index)) named.set(index, `${d.path} ${d.message ?? 'is invalid'}`);
      }
      if (named.size > 0) {
        const bad = lines.filter((_, i) => named.has(i));
        const rest = lines.filter((_, i) => !named.has(i));
        const reasons = new Map([...named].map(([i, reason]) => [lines[i]!.line, `${reason} (${answer.status} ${answer.message})`]));
        return merge(
          rejectedReport(bad, (l) => reasons.get(l.line)!),
          rest.length > 0 ? await this.send(rest) : emptyReport(),
        );
      }
    }
    throw new Error(`import request failed: ${answer.status} ${answer.text}`);
  }

  /** One request, retried with backoff while the service is busy or away. */
  private async post(body: string): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.url.replace(/\/+$/, '')}/api/cortex/feedback/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.key ? { authorization: `Bearer ${this.key}` } : {}) },
        body,
      }).catch(() => undefined);
      if (res?.ok) return { ok: true, report: ((await res.json()) as { data: ImportBatchReport }).data };
      const retryable = !res || res.status === 429 || res.status >= 500;
      if (res && (!retryable || attempt >= 8)) return refusal(res.status, await res.text());
      if (!res && attempt >= 8) throw new Error('import request failed: no answer');
      const wait = Number(res?.headers.get('retry-after')) * 1000 || Math.random() * Math.min(30_000, 250 * 2 ** attempt);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

function refusal(status: number, text: string): Answer {
  let error: { message?: string; details?: { path?: string; message?: string }[] } | undefined;
  try {
    error = (JSON.parse(text) as { error?: typeof error }).error;
  } catch {
    error = undefined;
  }
  return { ok: false, status, message: error?.message ?? text.slice(0, 200), details: error?.details ?? [], text };
}

const byteLength = (line: Line) => Buffer.byteLength(line.text);
const emptyReport = (): ImportBatchReport => ({ lines: 0, imported: 0, duplicates: 0, rejected: [] });

function rejectedReport(lines: Line[], reason: (line: Line) => string): ImportBatchReport {
  return { lines: lines.length, imported: 0, duplicates: 0, rejected: lines.map((l) => ({ line: l.line, reason: reason(l) })) };
}

function merge(a: ImportBatchReport, b: ImportBatchReport): ImportBatchReport {
  return {
    lines: a.lines + b.lines,
    imported: a.imported + b.imported,
    duplicates: a.duplicates + b.duplicates,
    rejected: [...a.rejected, ...b.rejected].sort((x, y) => x.line - y.line),
  };
}
