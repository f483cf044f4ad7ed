import type { ImportBatchReport, ImportFormat } from '../feedback/feedback.module.js';
import type { Importer } from './importer.js';
import type { Line } from './line-reader.js';

/**
 * Batches to POST /api/cortex/feedback/import of a running service, retried with backoff on 429,
 * 5xx and no answer. A CSV file's header travels with every batch: the command reads it (useHeader).
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
    const body = JSON.stringify({
      format: this.format,
      ...(this.csvHeader ? { csvHeader: this.csvHeader } : {}),
      lines: lines.map((l) => ({ line: l.line, text: l.text })),
    });
    return async () => {
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(`${this.url.replace(/\/+$/, '')}/api/cortex/feedback/import`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(this.key ? { authorization: `Bearer ${this.key}` } : {}) },
          body,
        }).catch(() => undefined);
        if (res?.ok) return ((await res.json()) as { data: ImportBatchReport }).data;
        const retryable = !res || res.status === 429 || res.status >= 500;
        if (!retryable || attempt >= 8)
          throw new Error(`import request failed: ${res ? `${res.status} ${await res.text()}` : 'no answer'}`);
        const wait = Number(res?.headers.get('retry-after')) * 1000 || Math.random() * Math.min(30_000, 250 * 2 ** attempt);
        await new Promise((r) => setTimeout(r, wait));
      }
    };
  }

  async close(): Promise<void> {}
}
