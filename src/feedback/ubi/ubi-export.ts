/** Feedback items → UBI 1.3.0 documents: the inverse of ubi-mapping.ts, for export. */
import type { Static } from 'typebox';
import type { FeedbackItemView } from '../feedback.schemas.js';

type Item = Static<typeof FeedbackItemView>;
type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const KEPT = new Set(['position', 'dwellTime', 'ubi', 'ubiQuery']);

function parse(json: unknown): Doc {
  if (typeof json !== 'string' || json === '+') return {};
  try {
    const value = JSON.parse(json) as unknown;
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

function withSession(doc: Doc, rest: Doc, sessionId: string): Doc {
  const fromClient = rest.$session === 'client_id';
  const { $session: _marker, ...clean } = doc;
  return fromClient ? { ...clean, client_id: sessionId } : { ...clean, session_id: sessionId };
}

export function itemToUbiEvent(item: Item): Doc {
  const custom = item.metadata.customMetadata;
  const rest = parse(custom.ubi);
  const attributes: Doc = isObject(rest.event_attributes) ? rest.event_attributes : {};
  delete rest.event_attributes;
  // Feedback sent natively (not through UBI): its own metadata goes to event_attributes.
  for (const [key, value] of Object.entries(custom)) if (!KEPT.has(key)) attributes[key] = value;
  if (item.rating !== null) attributes.rating = item.rating;
  if (item.metadata.queryHash !== null && custom.ubi === undefined) attributes.query_hash = item.metadata.queryHash;
  const position = typeof custom.position === 'number' ? custom.position : undefined;
  if (position !== undefined) attributes.position = { ...(isObject(attributes.position) ? attributes.position : {}), ordinal: position };
  if (item.metadata.resultId !== null) {
    const object = isObject(attributes.object) ? attributes.object : {};
    const integer = object.object_id === 'integer';
    attributes.object = { ...object, object_id: integer ? Number(item.metadata.resultId) : item.metadata.resultId };
  }
  if (typeof custom.dwellTime === 'number') attributes.dwell_time = custom.dwellTime;
  const actionName = (rest.action_name as string | undefined) ?? item.metadata.userAction ?? (item.rating !== null ? 'rate' : 'unknown');
  delete rest.action_name;
  const doc: Doc = { ...rest, action_name: actionName, query_id: item.queryId, timestamp: item.metadata.timestamp };
  // UBI requires a position whenever event_attributes is present; without one, what we know stays at the top.
  if (Object.keys(attributes).length > 0) {
    if (isObject(attributes.position)) doc.event_attributes = attributes;
    else doc.searchloop_event_attributes = attributes;
  }
  return withSession(doc, rest, item.sessionId);
}

/** The items of one UBI query (consecutive, same submission and queryId) → its query document. */
export function itemsToUbiQuery(items: Item[]): Doc {
  const first = items[0]!;
  const rest = parse(first.metadata.customMetadata.ubiQuery);
  const hits = items
    .filter((i) => i.metadata.resultId !== null)
    .sort((a, b) => (a.metadata.customMetadata.position as number) - (b.metadata.customMetadata.position as number))
    .map((i) => i.metadata.resultId as string);
  const doc: Doc = { ...rest, query_id: first.queryId, timestamp: first.metadata.timestamp, query_response_hit_ids: hits };
  return withSession(doc, rest, first.sessionId);
}

export const isUbiQueryItem = (item: Item): boolean => item.metadata.customMetadata.ubiQuery !== undefined;
