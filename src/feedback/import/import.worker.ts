/**
 * The import's CPU half (parse, check, build records and keys) on its own thread, so it runs
 * while the main thread writes the previous batch: better-sqlite3 is synchronous, and without
 * this the parsing added to the insert time instead of overlapping it. Batches are answered in
 * the order they came; the LineParser (a CSV file's header) lives across batches.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../../common/clock.js';
import { FeedbackService } from '../feedback.service.js';
import type { FeedbackRecord } from '../feedback.store.js';
import type { FeedbackSubmissionBody } from '../feedback.schemas.js';
import { LineParser, type ImportFormat } from './import-lines.js';
import { FeedbackImportService } from './import.service.js';
import type { PrepareRequest, PrepareAnswer } from './import-preparer.js';

const { format, csvHeader } = workerData as { format: ImportFormat; csvHeader?: string[] };
const parser = new LineParser(format);
if (csvHeader) parser.useHeader(csvHeader);
// toRecords is pure (the API's rules applied to a body); it needs no store.
const toRecords = (body: FeedbackSubmissionBody, submissionId: string, receivedAt: number): FeedbackRecord[] =>
  FeedbackService.prototype.toRecords.call(undefined, body, submissionId, receivedAt);
const service = new FeedbackImportService(
  {
    importBatch: () => Promise.reject(new Error('the import worker only prepares')),
  },
  { toRecords },
  systemClock,
);

parentPort!.on('message', ({ id, texts, lines }: PrepareRequest) => {
  let answer: PrepareAnswer;
  try {
    const parsed = texts.flatMap((text, i) => parser.parse(text, lines[i]!) ?? []);
    answer = { id, prepared: service.prepare(parsed), ...(parser.csvHeader ? { csvHeader: parser.csvHeader } : {}) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(answer);
});
parentPort!.postMessage('ready');
