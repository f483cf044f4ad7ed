import { exportFeedback, type ExportFilter, type ExportFormat } from './export/feedback-export.js';
import type { FeedbackService } from './feedback.service.js';
import type { ImportFormat } from './import/import-lines.js';
import { startImportPreparer } from './import/import-preparer.js';
import type { FeedbackImportService, ImportBatchReport } from './import/import.service.js';

/** One file's import into this database, batch after batch. */
export interface ImportRun {
  /**
   * Prepares `lines` now (parsing and checks, on a worker thread) and returns their write, to be
   * called once the previous batch's write is done: the next batch is prepared while one is written.
   */
  prepare(lines: readonly { line: number; text: string }[]): () => Promise<ImportBatchReport>;
  /** The file's CSV header once read (a resumed import starts with it). */
  readonly csvHeader: string[] | undefined;
  close(): Promise<void>;
}

/**
 * Feedback files in and out in bulk (`searchloop import` / `export`): NDJSON of submissions or
 * exported items, UBI 1.3.0 documents, CSV. The module's one entry for the command line.
 */
export class FeedbackExchangeService {
  constructor(
    private readonly imports: Pick<FeedbackImportService, 'prepare' | 'write'>,
    private readonly feedback: Pick<FeedbackService, 'list'>,
  ) {}

  /** `inline`: parse on this thread instead of a worker (the same work, one batch after the other). */
  async startImport(format: ImportFormat, options: { csvHeader?: string[]; inline?: boolean } = {}): Promise<ImportRun> {
    const preparer = await startImportPreparer(this.imports, format, options.csvHeader, options.inline ?? false);
    let csvHeader = options.csvHeader;
    return {
      prepare: (lines) => {
        const prepared = preparer.prepare([...lines]);
        return async () => {
          const batch = await prepared;
          if (batch.csvHeader && !csvHeader) csvHeader = batch.csvHeader;
          return this.imports.write(batch);
        };
      },
      get csvHeader() {
        return csvHeader;
      },
      close: () => preparer.close(),
    };
  }

  /** Feedback out, oldest first, streamed page by page; every line carries the cursor to resume after it. */
  export(format: ExportFormat, filter: ExportFilter): AsyncGenerator<string> {
    return exportFeedback((query) => this.feedback.list(query), format, filter);
  }
}
