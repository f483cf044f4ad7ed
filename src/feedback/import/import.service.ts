import { hash } from 'node:crypto';
import type { Clock } from '../../common/clock.js';
import { SILENT_EVENTS, type DomainEventLog } from '../../common/domain-events.js';
import { AppError } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { importBatchEvent } from '../feedback-events.js';
import type { FeedbackService } from '../feedback.service.js';
import type { FeedbackRecord } from '../feedback.store.js';
import type { MappedItem } from '../ubi/ubi-mapping.js';
import type { FeedbackImportStore, ImportEntry } from './import.store.js';

export type ParsedImportLine = { line: number; items: MappedItem[] } | { line: number; error: string };

export interface ImportBatchReport {
  lines: number;
  imported: number;
  duplicates: number;
  rejected: { line: number; reason: string }[];
}

export interface PreparedImportBatch {
  report: ImportBatchReport;
  entries: ImportEntry[];
  at: number;
}

/**
 * The digest that makes an item the same item on every import: its stored fields (so a line of
 * our own export, or the same event written differently, is the same item), with the event time
 * only when the line gave one (else it is the import's clock, different on every run).
 * Identical items are one item: exact duplicates in a file are stored once.
 *
 * The key starts with the event time (12 hex digits, zeros when the line gave none) and goes on
 * with 52 hex digits of the SHA-256: logs are written in time order, so each batch's keys land
 * next to each other at the end of the key index instead of on thousands of random pages (a
 * random 64-digit key made the key index the import's largest database cost: 76 000 claims/s
 * against 256 000/s in time order, measured on 200 000 keys, and worse as the index grows).
 */
function importKey(record: FeedbackRecord, timestamped: boolean): string {
  const { id: _id, submissionId: _s, seq: _q, receivedAt: _r, eventTime, ...fields } = record;
  const digest = hash('sha256', JSON.stringify([fields, timestamped ? eventTime : null]), 'hex');
  const time = timestamped && eventTime >= 0 ? eventTime.toString(16).padStart(12, '0') : '000000000000';
  return `${time}${digest.slice(0, 52)}`;
}

/**
 * Bulk import: parsed lines in, one transaction per batch. Each item is checked by the same
 * rules as POST /api/cortex/feedback (a line that breaks one is rejected with the reason, the
 * others go on), keeps its own timestamp (historical ones included: no future-skew limit is
 * lifted, none is added), and is keyed by a digest of its line, so a re-import stores nothing new.
 */
export class FeedbackImportService {
  constructor(
    private readonly store: FeedbackImportStore,
    private readonly feedback: Pick<FeedbackService, 'toRecords'>,
    private readonly clock: Clock,
    /** A line per batch written (the server sees batches: `searchloop import --url` sends one per request). */
    private readonly events: DomainEventLog = SILENT_EVENTS,
  ) {}

  /** Checks and parses, then writes in one transaction. */
  async importBatch(lines: ParsedImportLine[]): Promise<ImportBatchReport> {
    return this.write(this.prepare(lines));
  }

  /**
   * The CPU half of a batch (rules, records, digests), apart from the write so a caller can
   * prepare the next batch while the database commits this one.
   */
  prepare(lines: ParsedImportLine[]): PreparedImportBatch {
    const now = this.clock.now();
    const report: ImportBatchReport = { lines: lines.length, imported: 0, duplicates: 0, rejected: [] };
    const submissionOf = new Map<string, { id: string; seq: number }>();
    const entries: ImportEntry[] = [];
    const seen = new Set<string>();
    for (const parsed of lines) {
      if ('error' in parsed) {
        report.rejected.push({ line: parsed.line, reason: parsed.error });
        continue;
      }
      const sessionId = parsed.items[0]?.sessionId;
      if (sessionId === undefined) continue;
      let records;
      try {
        records = this.feedback.toRecords({ sessionId, feedback: parsed.items.map((m) => m.item) }, 'import', now);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const detail = error.details[0];
        report.rejected.push({ line: parsed.line, reason: detail ? `${detail.path} ${detail.message}` : error.message });
        continue;
      }
      records.forEach((record, i) => {
        const key = importKey(record, parsed.items[i]!.item.metadata?.timestamp !== undefined);
        if (seen.has(key)) {
          report.duplicates += 1;
          return;
        }
        seen.add(key);
        let submission = submissionOf.get(sessionId);
        if (!submission) submissionOf.set(sessionId, (submission = { id: newId(), seq: 0 }));
        entries.push({ key, record: { ...record, submissionId: submission.id, seq: submission.seq++ } });
      });
    }
    return { report, entries, at: now };
  }

  async write(batch: PreparedImportBatch): Promise<ImportBatchReport> {
    const stored = await this.store.importBatch(batch.entries, batch.at);
    const report = { ...batch.report, imported: stored.inserted, duplicates: batch.report.duplicates + stored.duplicates };
    const e = importBatchEvent(report);
    this.events.record(e.event, e.fields, e.message);
    return report;
  }
}
