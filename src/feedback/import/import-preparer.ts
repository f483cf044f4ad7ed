import type { Worker } from 'node:worker_threads';
import { moduleWorker, workerReady } from '../../common/worker-threads.js';
import { LineParser, type ImportFormat } from './import-lines.js';
import type { FeedbackImportService, PreparedImportBatch } from './import.service.js';

export interface PrepareRequest {
  id: number;
  texts: string[];
  lines: number[];
}
export type PrepareAnswer = { id: number; prepared: PreparedImportBatch; csvHeader?: string[] } | { id: number; error: string };

/** Prepared batches, in the order asked; `csvHeader` once the file's header is known. */
export interface ImportPreparer {
  prepare(lines: { text: string; line: number }[]): Promise<PreparedImportBatch & { csvHeader?: string[] }>;
  /** Where the work runs: 'worker' (its own thread) or 'inline' (this thread, between writes). */
  readonly mode: 'worker' | 'inline';
  close(): Promise<void>;
}

/**
 * Parses and prepares import batches on a worker thread (import.worker.ts), so a synchronous
 * database write on this thread and the next batch's parsing run at the same time. Inline when
 * `inline` is asked or the worker cannot start (the same work, one batch after the other).
 */
export async function startImportPreparer(
  service: Pick<FeedbackImportService, 'prepare'>,
  format: ImportFormat,
  csvHeader: string[] | undefined,
  inline = false,
): Promise<ImportPreparer> {
  const worker = inline ? undefined : await startWorker(format, csvHeader);
  if (!worker) {
    const parser = new LineParser(format);
    if (csvHeader) parser.useHeader(csvHeader);
    return {
      mode: 'inline',
      prepare: async (lines) => {
        const prepared = service.prepare(lines.flatMap((l) => parser.parse(l.text, l.line) ?? []));
        return { ...prepared, ...(parser.csvHeader ? { csvHeader: parser.csvHeader } : {}) };
      },
      close: async () => undefined,
    };
  }
  const pending = new Map<number, { resolve: (p: PreparedImportBatch & { csvHeader?: string[] }) => void; reject: (e: Error) => void }>();
  let next = 0;
  let failed: Error | undefined;
  const fail = (error: Error) => {
    failed = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  worker.on('message', (answer: PrepareAnswer) => {
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if ('error' in answer) waiting?.reject(new Error(`import worker: ${answer.error}`));
    else waiting?.resolve({ ...answer.prepared, ...(answer.csvHeader ? { csvHeader: answer.csvHeader } : {}) });
  });
  worker.on('error', fail);
  const exitedEarly = (code: number) => fail(new Error(`import worker exited (${code})`));
  worker.on('exit', exitedEarly);
  return {
    mode: 'worker',
    prepare: (lines) =>
      new Promise((resolve, reject) => {
        if (failed) return reject(failed);
        const id = (next += 1);
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, texts: lines.map((l) => l.text), lines: lines.map((l) => l.line) } satisfies PrepareRequest);
      }),
    close: async () => {
      worker.off('exit', exitedEarly);
      await worker.terminate();
    },
  };
}

/** The worker, from import.worker.js next to this file (import.worker.ts when run from source with tsx). */
async function startWorker(format: ImportFormat, csvHeader: string[] | undefined): Promise<Worker | undefined> {
  try {
    const worker = moduleWorker(import.meta.url, './import.worker', { format, csvHeader });
    // Ready once its modules have loaded: a worker that cannot load them falls back to inline.
    await workerReady(worker);
    return worker;
  } catch {
    return undefined;
  }
}
