/**
 * Lines of an import file → feedback items, or a reason. Three shapes, told apart per file
 * (CSV: the first line is a header) and per JSON line: a feedback submission
 * `{sessionId, feedback: [...]}`, an item as `format=ndjson` exports it, or a UBI 1.3.0
 * event or query document.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { ErrorDetail } from '../../common/errors.js';
import { FeedbackSubmissionBody, type FeedbackItemInput } from '../feedback.schemas.js';
import { CSV_ITEM_COLUMNS } from '../export/feedback-export.js';
import { eventToItem, queryToItems, type MappedItem } from '../ubi/ubi-mapping.js';
import { checkUbiEvent, checkUbiQuery } from '../ubi/ubi-rules.js';

export type ImportFormat = 'auto' | 'feedback' | 'ubi' | 'csv';
export type ParsedLine = { line: number; items: MappedItem[] } | { line: number; error: string };

const ajv = new Ajv.default({ allErrors: false, strict: false });
addFormats.default(ajv);
const validSubmission = ajv.compile(FeedbackSubmissionBody);

/** Export-only CSV columns, ignored on import so an export imports back. */
const IGNORED_CSV = new Set(['itemId', 'feedbackId', 'receivedAt', 'cursor']);
const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** One CSV record on one line (RFC 4180 quoting; a quoted field may not span lines). */
export function splitCsvLine(text: string): string[] | undefined {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) return undefined;
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i++];
      }
      fields.push(value);
      if (i < text.length && text[i] !== ',') return undefined;
    } else {
      const end = text.indexOf(',', i);
      fields.push(end < 0 ? text.slice(i) : text.slice(i, end));
      i = end < 0 ? text.length : end;
    }
    if (i >= text.length) return fields;
    i++; // the comma
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function dropNulls(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

function checked(sessionId: unknown, feedback: unknown[]): MappedItem[] | string {
  const body = { sessionId, feedback };
  if (!validSubmission(body)) {
    const error = validSubmission.errors?.[0];
    return `${error?.instancePath || '/'} ${error?.message ?? 'is not a feedback submission'}`;
  }
  return feedback.map((item) => ({ sessionId: sessionId as string, item: item as FeedbackItemInput }));
}

export class LineParser {
  private header: string[] | undefined;
  private mode: 'json' | 'csv' | undefined;

  constructor(private readonly format: ImportFormat = 'auto') {
    if (format === 'csv') this.mode = 'csv';
    if (format === 'feedback' || format === 'ubi') this.mode = 'json';
  }

  /** The CSV header, once read (sent along when importing over HTTP). */
  get csvHeader(): string[] | undefined {
    return this.header;
  }

  useHeader(header: string[]): void {
    this.mode = 'csv';
    this.header = header;
  }

  /** undefined: nothing to import on this line (blank, or the CSV header). */
  parse(text: string, line: number): ParsedLine | undefined {
    const trimmed = text.trim();
    if (trimmed === '') return undefined;
    this.mode ??= trimmed.startsWith('{') ? 'json' : 'csv';
    if (this.mode === 'csv') {
      const fields = splitCsvLine(text.replace(/\r$/, ''));
      if (!fields) return { line, error: 'unbalanced quotes (a quoted CSV field may not span lines)' };
      if (!this.header) {
        if (!fields.includes('sessionId') || !fields.includes('queryId')) {
          return { line, error: 'the CSV header must name sessionId and queryId' };
        }
        this.header = fields;
        return undefined;
      }
      return this.csvRow(fields, line);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(trimmed);
    } catch {
      return { line, error: 'not JSON' };
    }
    return this.jsonDoc(doc, line);
  }

  private jsonDoc(doc: unknown, line: number): ParsedLine {
    if (!isObject(doc)) return { line, error: 'not a JSON object' };
    const problems: ErrorDetail[] = [];
    const describe = () => problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ');
    if (this.format !== 'ubi' && Array.isArray(doc.feedback)) {
      const items = checked(doc.sessionId, doc.feedback);
      return typeof items === 'string' ? { line, error: items } : { line, items };
    }
    if (this.format !== 'ubi' && typeof doc.itemId === 'string' && isObject(doc.metadata)) {
      // A line of our own NDJSON export.
      const metadata = dropNulls(doc.metadata);
      if (isObject(metadata.customMetadata) && Object.keys(metadata.customMetadata).length === 0) delete metadata.customMetadata;
      const item = dropNulls({ queryId: doc.queryId, rating: doc.rating, metadata });
      const items = checked(doc.sessionId, [item]);
      return typeof items === 'string' ? { line, error: items } : { line, items };
    }
    if (this.format !== 'feedback' && doc.action_name !== undefined) {
      if (!checkUbiEvent(doc, '', problems)) return { line, error: `UBI event: ${describe()}` };
      const item = eventToItem(doc, '', problems);
      return item ? { line, items: [item] } : { line, error: `UBI event: ${describe()}` };
    }
    if (this.format !== 'feedback' && doc.user_query !== undefined) {
      if (!checkUbiQuery(doc, '', problems)) return { line, error: `UBI query: ${describe()}` };
      const items = queryToItems(doc, '', problems);
      return problems.length > 0 ? { line, error: `UBI query: ${describe()}` } : { line, items };
    }
    return { line, error: 'neither a feedback submission, an exported item, nor a UBI event or query' };
  }

  private csvRow(fields: string[], line: number): ParsedLine {
    const header = this.header!;
    if (fields.length !== header.length) return { line, error: `${fields.length} fields, the header has ${header.length}` };
    const row: Record<string, string> = {};
    header.forEach((name, i) => {
      if (fields[i] !== '' && !IGNORED_CSV.has(name)) row[name] = fields[i]!;
    });
    const number = (name: string): number | undefined | string => {
      const value = row[name];
      if (value === undefined) return undefined;
      return NUMERIC.test(value) ? Number(value) : `${name}: "${value}" is not a number`;
    };
    const custom: Json = {};
    if (row.customMetadata !== undefined) {
      try {
        const parsed = JSON.parse(row.customMetadata) as unknown;
        if (!isObject(parsed)) return { line, error: 'customMetadata: not a JSON object' };
        Object.assign(custom, parsed);
      } catch {
        return { line, error: 'customMetadata: not JSON' };
      }
    }
    for (const [name, value] of Object.entries(row))
      if (!CSV_ITEM_COLUMNS.includes(name)) custom[name] = NUMERIC.test(value) ? Number(value) : value;
    const rating = number('rating');
    const position = number('position');
    const dwellTime = number('dwellTime');
    for (const value of [rating, position, dwellTime]) if (typeof value === 'string') return { line, error: value };
    if (position !== undefined) custom.position = position;
    if (dwellTime !== undefined) custom.dwellTime = dwellTime;
    const metadata = dropNulls({
      userAction: row.userAction ?? null,
      timestamp: row.timestamp ?? null,
      resultId: row.resultId ?? null,
      queryHash: row.queryHash ?? null,
      engagementType: row.engagementType ?? null,
      customMetadata: Object.keys(custom).length > 0 ? custom : null,
    });
    const item = dropNulls({ queryId: row.queryId ?? null, rating: rating ?? null, metadata });
    const items = checked(row.sessionId, [item]);
    return typeof items === 'string' ? { line, error: items } : { line, items };
  }
}
