/**
 * The rules of OpenSearch User Behavior Insights 1.3.0 (o19s/ubi, schema/1.3.0: event.schema.json
 * and query.request.schema.json), written out as checks: required fields, types and lengths.
 * Every problem is reported with a JSON pointer (`prefix` is the document's place in the body).
 *
 * `action_name`: the published schema says `oneOf` [an enum of the standard names, any string ≤ 100];
 * strictly read that refuses every standard name (it matches both branches). It is meant as
 * `anyOf`, and that is what is checked: any string of at most 100 characters.
 */
import type { ErrorDetail } from '../../common/errors.js';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
/** RFC 3339 date-time; UBI's own examples include one without a zone (read as UTC). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;

export function parseUbiTimestamp(value: string): number {
  const zoned = /([Zz]|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  return Date.parse(zoned.replace(' ', 'T'));
}

class Checker {
  constructor(
    readonly problems: ErrorDetail[],
    private readonly prefix: string,
  ) {}
  fail(path: string, message: string) {
    this.problems.push({ path: `${this.prefix}${path}`, message, in: 'body' });
  }
  string(doc: Doc, key: string, path: string, options: { required?: boolean; max?: number } = {}) {
    const value = doc[key];
    if (value === undefined || value === null) {
      if (options.required) this.fail(`${path}/${key}`, 'is required');
      return;
    }
    if (typeof value !== 'string') return this.fail(`${path}/${key}`, 'must be a string');
    if (options.max !== undefined && value.length > options.max) this.fail(`${path}/${key}`, `must be at most ${options.max} characters`);
  }
  timestamp(doc: Doc, key: string, required: boolean) {
    this.string(doc, key, '', { required });
    const value = doc[key];
    if (typeof value === 'string' && (!DATE_TIME.test(value) || Number.isNaN(parseUbiTimestamp(value)))) {
      this.fail(`/${key}`, 'must be an ISO 8601 date-time');
    }
  }
  idOrInteger(doc: Doc, key: string, path: string, required: boolean) {
    const value = doc[key];
    if (value === undefined) return required ? this.fail(`${path}/${key}`, 'is required') : undefined;
    if (typeof value === 'number' ? !Number.isInteger(value) : typeof value !== 'string' || value.length > 256) {
      this.fail(`${path}/${key}`, 'must be a string of at most 256 characters or an integer');
    }
  }
}

const COMMON_SHORT = ['application', 'query_id', 'client_id'] as const;

/** An event document (event.schema.json). */
export function checkUbiEvent(doc: unknown, prefix: string, problems: ErrorDetail[]): doc is Doc {
  const c = new Checker(problems, prefix);
  const before = problems.length;
  if (!isObject(doc)) {
    c.fail('', 'must be a UBI event object');
    return false;
  }
  c.string(doc, 'action_name', '', { required: true, max: 100 });
  c.timestamp(doc, 'timestamp', true);
  for (const key of [...COMMON_SHORT, 'session_id', 'user_id', 'message_type']) c.string(doc, key, '', { max: 100 });
  c.string(doc, 'message', '', { max: 1024 });
  const attributes = doc.event_attributes;
  if (attributes !== undefined) {
    if (!isObject(attributes)) c.fail('/event_attributes', 'must be an object');
    else {
      const position = attributes.position;
      if (position === undefined) c.fail('/event_attributes/position', 'is required when event_attributes is present');
      else if (!isObject(position)) c.fail('/event_attributes/position', 'must be an object');
      else {
        const ordinal = position.ordinal;
        const xy = position.xy;
        const hasOrdinal = ordinal !== undefined;
        const hasXy = xy !== undefined;
        if (hasOrdinal && !Number.isInteger(ordinal)) c.fail('/event_attributes/position/ordinal', 'must be an integer');
        if (hasXy && !(isObject(xy) && typeof xy.x === 'number' && typeof xy.y === 'number')) {
          c.fail('/event_attributes/position/xy', 'must be {x: number, y: number}');
        }
        if (!hasOrdinal && !hasXy) c.fail('/event_attributes/position', 'needs ordinal or xy');
      }
      const object = attributes.object;
      if (object !== undefined) {
        if (!isObject(object)) c.fail('/event_attributes/object', 'must be an object');
        else {
          c.idOrInteger(object, 'object_id', '/event_attributes/object', true);
          c.idOrInteger(object, 'internal_id', '/event_attributes/object', false);
          c.string(object, 'object_id_type', '/event_attributes/object', { max: 100 });
          c.string(object, 'object_id_field', '/event_attributes/object', { max: 100 });
        }
      }
    }
  }
  return problems.length === before;
}

/** A query document (query.request.schema.json). */
export function checkUbiQuery(doc: unknown, prefix: string, problems: ErrorDetail[]): doc is Doc {
  const c = new Checker(problems, prefix);
  const before = problems.length;
  if (!isObject(doc)) {
    c.fail('', 'must be a UBI query object');
    return false;
  }
  c.string(doc, 'user_query', '', { required: true });
  for (const key of [...COMMON_SHORT, 'object_id_field']) c.string(doc, key, '', { max: 100 });
  c.string(doc, 'query_response_id', '');
  c.timestamp(doc, 'timestamp', false);
  if (doc.query_attributes !== undefined && !isObject(doc.query_attributes)) c.fail('/query_attributes', 'must be an object');
  const hits = doc.query_response_hit_ids;
  if (hits !== undefined) {
    if (!Array.isArray(hits)) c.fail('/query_response_hit_ids', 'must be an array of strings');
    else hits.forEach((hit, i) => typeof hit !== 'string' && c.fail(`/query_response_hit_ids/${i}`, 'must be a string'));
  }
  return problems.length === before;
}
