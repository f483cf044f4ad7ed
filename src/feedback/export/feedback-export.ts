/**
 * Streams feedback out, oldest first, page by page (constant memory): NDJSON of our items, CSV
 * with a header, or NDJSON of UBI 1.3.0 documents. Every line carries the cursor to resume after
 * it (`cursor` / `searchloop_cursor`), the list endpoint's own cursor.
 */
import type { Static } from 'typebox';
import { encodeCursor } from '../../common/pagination.js';
import type { FeedbackItemView, FeedbackListQuery } from '../feedback.schemas.js';
import { isUbiQueryItem, itemToUbiEvent, itemsToUbiQuery } from '../ubi/ubi-export.js';

type Item = Static<typeof FeedbackItemView>;
export type ExportFormat = 'ubi' | 'ndjson' | 'csv';
/** Which feedback to export: one session, a time range, after a cursor. */
export interface ExportFilter {
  sessionId?: string;
  since?: string;
  until?: string;
  cursor?: string;
}
export type PageReader = (query: FeedbackListQuery) => Promise<{ items: Item[]; nextCursor: string | null }>;

/** The CSV columns that carry an item's own fields: what `searchloop import` reads back from a CSV file. */
export const CSV_ITEM_COLUMNS: readonly string[] = [
  'sessionId',
  'queryId',
  'queryHash',
  'resultId',
  'position',
  'userAction',
  'timestamp',
  'rating',
  'dwellTime',
  'engagementType',
  'customMetadata',
];

export const CSV_COLUMNS = [...CSV_ITEM_COLUMNS, 'itemId', 'feedbackId', 'receivedAt', 'cursor'];

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLine(item: Item): string {
  const { position, dwellTime, ...custom } = item.metadata.customMetadata;
  const row: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    sessionId: item.sessionId,
    queryId: item.queryId,
    queryHash: item.metadata.queryHash,
    resultId: item.metadata.resultId,
    position,
    userAction: item.metadata.userAction,
    timestamp: item.metadata.timestamp,
    rating: item.rating,
    dwellTime,
    engagementType: item.metadata.engagementType,
    customMetadata: Object.keys(custom).length > 0 ? custom : null,
    itemId: item.itemId,
    feedbackId: item.feedbackId,
    receivedAt: item.receivedAt,
    cursor: encodeCursor(item.itemId),
  };
  return `${CSV_COLUMNS.map((c) => csvField(row[c])).join(',')}\n`;
}

export async function* exportFeedback(
  read: PageReader,
  format: ExportFormat,
  filter: ExportFilter,
  pageSize = 1000,
): AsyncGenerator<string> {
  if (format === 'csv') yield `${CSV_COLUMNS.join(',')}\n`;
  let cursor = filter.cursor;
  let group: Item[] = [];
  const flushGroup = (): string | undefined => {
    if (group.length === 0) return undefined;
    const doc = { ...itemsToUbiQuery(group), searchloop_cursor: encodeCursor(group.at(-1)!.itemId) };
    group = [];
    return `${JSON.stringify(doc)}\n`;
  };
  for (;;) {
    const page = await read({ ...filter, cursor, limit: pageSize });
    let out = '';
    for (const item of page.items) {
      if (format === 'ndjson') out += `${JSON.stringify({ ...item, cursor: encodeCursor(item.itemId) })}\n`;
      else if (format === 'csv') out += csvLine(item);
      else if (isUbiQueryItem(item)) {
        const last = group.at(-1);
        if (
          last &&
          (last.feedbackId !== item.feedbackId || last.queryId !== item.queryId || item.metadata.customMetadata.ubiQuery !== '+')
        ) {
          out += flushGroup() ?? '';
        }
        group.push(item);
      } else {
        out += flushGroup() ?? '';
        out += `${JSON.stringify({ ...itemToUbiEvent(item), searchloop_cursor: encodeCursor(item.itemId) })}\n`;
      }
    }
    if (!page.nextCursor) out += flushGroup() ?? '';
    if (out) yield out;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
