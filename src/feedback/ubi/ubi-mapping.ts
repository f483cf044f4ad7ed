/**
 * UBI 1.3.0 documents ↔ feedback items (the table is in docs/integration.md). What has no
 * place in a feedback item is kept, not dropped: the rest of the document rides along as JSON in
 * `customMetadata.ubi` (events) or `customMetadata.ubiQuery` (queries) and comes back on export.
 */
import type { ErrorDetail } from '../../common/errors.js';
import type { FeedbackItemInput } from '../feedback.schemas.js';
import { parseUbiTimestamp } from './ubi-rules.js';

type Doc = Record<string, unknown>;
type Custom = NonNullable<NonNullable<FeedbackItemInput['metadata']>['customMetadata']>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** UBI's standard action names onto the service's vocabulary; any other name is kept as sent. */
export const UBI_ACTIONS: Readonly<Record<string, string>> = {
  impression: 'impression',
  click: 'click',
  click_through: 'click',
  add_to_cart: 'add_to_cart',
  purchase: 'purchase',
};

/** The item a UBI query with no hits becomes (a verb the vocabulary gives no meaning). */
export const UBI_QUERY_ACTION = 'query';
const MAX_POSITION = 10_000;
const MAX_DWELL_MS = 86_400_000;

export interface MappedItem {
  sessionId: string;
  item: FeedbackItemInput;
}

/** Lower case, NFKC, trimmed, inner whitespace collapsed: one queryHash per query however typed. */
export function normalizeQuery(text: string): string {
  return text.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ').slice(0, 256);
}

function session(doc: Doc, rest: Doc, prefix: string, problems: ErrorDetail[]): string | undefined {
  if (typeof doc.session_id === 'string' && doc.session_id !== '') {
    delete rest.session_id;
    return doc.session_id;
  }
  if (typeof doc.client_id === 'string' && doc.client_id !== '') {
    delete rest.client_id;
    rest.$session = 'client_id';
    return doc.client_id;
  }
  problems.push({
    path: `${prefix}/session_id`,
    message: 'session_id or client_id is required to map onto feedback (sessionId)',
    in: 'body',
  });
  return undefined;
}

function queryIdOf(doc: Doc, prefix: string, problems: ErrorDetail[]): string | undefined {
  if (typeof doc.query_id === 'string' && doc.query_id !== '') return doc.query_id;
  problems.push({ path: `${prefix}/query_id`, message: 'query_id is required to map onto feedback (queryId)', in: 'body' });
  return undefined;
}

const iso = (value: unknown) => (typeof value === 'string' ? new Date(parseUbiTimestamp(value)).toISOString() : undefined);

/** One checked event document → one feedback item. */
export function eventToItem(doc: Doc, prefix: string, problems: ErrorDetail[]): MappedItem | undefined {
  const rest: Doc = structuredClone(doc);
  const queryId = queryIdOf(doc, prefix, problems);
  const sessionId = session(doc, rest, prefix, problems);
  if (!queryId || !sessionId) return undefined;
  delete rest.query_id;
  delete rest.timestamp;
  const actionName = doc.action_name as string;
  const userAction = UBI_ACTIONS[actionName] ?? actionName;
  if (userAction === actionName) delete rest.action_name;
  const custom: Doc = {};
  let resultId: string | undefined;
  const attributes = isObject(rest.event_attributes) ? rest.event_attributes : undefined;
  if (attributes) {
    const object = isObject(attributes.object) ? attributes.object : undefined;
    if (object && object.object_id !== undefined) {
      resultId = String(object.object_id);
      if (typeof object.object_id === 'number') object.object_id = 'integer';
      else delete object.object_id;
      if (Object.keys(object).length === 0) delete attributes.object;
    }
    const position = isObject(attributes.position) ? attributes.position : undefined;
    if (
      position &&
      Number.isInteger(position.ordinal) &&
      (position.ordinal as number) >= 1 &&
      (position.ordinal as number) <= MAX_POSITION
    ) {
      custom.position = position.ordinal;
      delete position.ordinal;
      if (Object.keys(position).length === 0) delete attributes.position;
    }
    const dwell = attributes.dwell_time;
    if (typeof dwell === 'number' && dwell >= 0 && dwell <= MAX_DWELL_MS) {
      custom.dwellTime = dwell;
      delete attributes.dwell_time;
    }
    if (Object.keys(attributes).length === 0) delete rest.event_attributes;
  }
  if (Object.keys(rest).length > 0) custom.ubi = JSON.stringify(rest);
  const timestamp = iso(doc.timestamp);
  return {
    sessionId,
    item: {
      queryId,
      metadata: {
        userAction,
        ...(timestamp ? { timestamp } : {}),
        ...(resultId !== undefined ? { resultId } : {}),
        ...(Object.keys(custom).length > 0 ? { customMetadata: custom as Custom } : {}),
      },
    },
  };
}

/** One checked query document → its hits as impressions at their positions (or one `query` item). */
export function queryToItems(doc: Doc, prefix: string, problems: ErrorDetail[]): MappedItem[] {
  const rest: Doc = structuredClone(doc);
  const queryId = queryIdOf(doc, prefix, problems);
  const sessionId = session(doc, rest, prefix, problems);
  const hits = (doc.query_response_hit_ids as string[] | undefined) ?? [];
  if (hits.length > MAX_POSITION) {
    problems.push({ path: `${prefix}/query_response_hit_ids`, message: `at most ${MAX_POSITION} hits`, in: 'body' });
    return [];
  }
  if (!queryId || !sessionId) return [];
  delete rest.query_id;
  delete rest.timestamp;
  delete rest.query_response_hit_ids;
  const timestamp = iso(doc.timestamp);
  const queryHash = normalizeQuery(doc.user_query as string) || undefined;
  const base = { ...(timestamp ? { timestamp } : {}), ...(queryHash ? { queryHash } : {}) };
  const whole = JSON.stringify(rest);
  if (hits.length === 0) {
    return [
      { sessionId, item: { queryId, metadata: { userAction: UBI_QUERY_ACTION, ...base, customMetadata: { ubiQuery: whole } as Custom } } },
    ];
  }
  return hits.map((hit, i) => ({
    sessionId,
    item: {
      queryId,
      metadata: {
        userAction: 'impression',
        resultId: hit,
        ...base,
        // The query's other fields once, on its first hit; the rest are marked as its hits.
        customMetadata: { position: i + 1, ubiQuery: i === 0 ? whole : '+' } as Custom,
      },
    },
  }));
}

/** The items of one session, in submissions of at most `max` items. */
export function toSubmissions(mapped: MappedItem[], max: number): { sessionId: string; feedback: FeedbackItemInput[] }[] {
  const bySession = new Map<string, FeedbackItemInput[]>();
  for (const { sessionId, item } of mapped) {
    const list = bySession.get(sessionId) ?? [];
    list.push(item);
    bySession.set(sessionId, list);
  }
  const out: { sessionId: string; feedback: FeedbackItemInput[] }[] = [];
  for (const [sessionId, items] of bySession) {
    for (let i = 0; i < items.length; i += max) out.push({ sessionId, feedback: items.slice(i, i + max) });
  }
  return out;
}
