import type { ImportBatchReport } from '../feedback/feedback.module.js';
import type { Line } from './line-reader.js';

/** Where `searchloop import` sends its batches: a running service over HTTP, or the database itself. */
export interface Importer {
  /** Prepares a batch now (CPU) and returns the write to await (I/O), so the next batch is prepared meanwhile. */
  prepare(lines: Line[]): () => Promise<ImportBatchReport>;
  /** The file's CSV header once known: saved with the position, so a resumed import knows it. */
  readonly csvHeader: string[] | undefined;
  close(): Promise<void>;
}
