import type { Insertable, Selectable } from 'kysely';
import type { FeedbackItemTable } from './feedback.js';

/**
 * The one mapping between a feedback item as the code names it (camelCase) and its `feedback_items`
 * row, for every store that writes or reads items (feedback, its import, the analytics backlog,
 * the training data) and for the test and bench helpers that write rows directly. It lives on the
 * storage floor beside the table's type because it is a fact about the table, and modules may not
 * import each other's files.
 */

/** A feedback item's written columns, camelCase (feedback's FeedbackRecord). */
export interface FeedbackItemFields {
  id: string;
  submissionId: string;
  seq: number;
  sessionId: string;
  queryId: string;
  rating: number | null;
  userAction: string | null;
  eventTime: number;
  receivedAt: number;
  resultId: string | null;
  queryHash: string | null;
  engagementType: string | null;
  searchType: string | null;
  position: number | null;
  timeToClick: number | null;
  deviceType: string | null;
  viewportWidth: number | null;
  viewportHeight: number | null;
  scrollDepth: number | null;
  dwellTime: number | null;
  category: string | null;
  language: string | null;
  /** Client keys beyond the known ones, as JSON text. */
  extraMetadata: string | null;
}

/**
 * feedback_items' columns that a write sets (all but the defaulted ones), in insert order: each with
 * its field and its PostgreSQL type (for `unnest($n::type[])` array parameters).
 */
export const FEEDBACK_ITEM_COLUMNS = [
  ['id', 'id', 'varchar'],
  ['submission_id', 'submissionId', 'varchar'],
  ['seq', 'seq', 'int'],
  ['session_id', 'sessionId', 'varchar'],
  ['query_id', 'queryId', 'varchar'],
  ['rating', 'rating', 'float8'],
  ['user_action', 'userAction', 'varchar'],
  ['event_time', 'eventTime', 'int8'],
  ['received_at', 'receivedAt', 'int8'],
  ['result_id', 'resultId', 'varchar'],
  ['query_hash', 'queryHash', 'varchar'],
  ['engagement_type', 'engagementType', 'varchar'],
  ['search_type', 'searchType', 'varchar'],
  ['position', 'position', 'int'],
  ['time_to_click', 'timeToClick', 'float8'],
  ['device_type', 'deviceType', 'varchar'],
  ['viewport_width', 'viewportWidth', 'float8'],
  ['viewport_height', 'viewportHeight', 'float8'],
  ['scroll_depth', 'scrollDepth', 'float8'],
  ['dwell_time', 'dwellTime', 'float8'],
  ['category', 'category', 'varchar'],
  ['language', 'language', 'varchar'],
  ['extra_metadata', 'extraMetadata', 'text'],
] as const satisfies readonly (readonly [keyof FeedbackItemTable, keyof FeedbackItemFields, string])[];

type Entry = (typeof FEEDBACK_ITEM_COLUMNS)[number];
export type FeedbackItemColumn = Entry[0];
/** The field of column C. */
export type FeedbackFieldOf<C extends FeedbackItemColumn> = Extract<Entry, readonly [C, string, string]>[1];
/** A row of the columns C (as a query selects them). */
export type FeedbackColumns<C extends FeedbackItemColumn> = Pick<Selectable<FeedbackItemTable>, C>;
/** The fields of the columns C. */
export type FeedbackFields<C extends FeedbackItemColumn> = Pick<FeedbackItemFields, FeedbackFieldOf<C>>;

const FIELD_OF = new Map<string, string>(FEEDBACK_ITEM_COLUMNS.map(([column, field]) => [column, field]));

/**
 * Compiles `return <expression>` over `arg` once. Why: these mappings run per item on the ingest,
 * import and fold paths, and an object built from the column list key by key costs 3 µs an item
 * where a literal costs 0.05 µs (measured 2026-11-28); the generated code is the literal, written
 * from FEEDBACK_ITEM_COLUMNS (constants of this file, never input).
 */
function compile<A, R>(arg: string, expression: string): (value: A) => R {
  return new Function(arg, `return ${expression};`) as (value: A) => R;
}

const key = (name: string) => JSON.stringify(name);
// One compiled picker per column list (callers pass a constant list).
const PICKERS = new WeakMap<readonly string[], (row: unknown) => unknown>();

/** The item's row, for Kysely's `insertInto('feedback_items').values(…)`. */
export const toFeedbackRow = compile<FeedbackItemFields, Insertable<FeedbackItemTable>>(
  'item',
  `{${FEEDBACK_ITEM_COLUMNS.map(([column, field]) => `${key(column)}: item[${key(field)}]`).join(', ')}}`,
);

/** The item's values in FEEDBACK_ITEM_COLUMNS order, for plain statements. */
export const feedbackRowValues = compile<FeedbackItemFields, (string | number | null)[]>(
  'item',
  `[${FEEDBACK_ITEM_COLUMNS.map(([, field]) => `item[${key(field)}]`).join(', ')}]`,
);

/** The fields of the `columns` a query selected, as they came (no conversion). */
export function pickFeedbackFields<C extends FeedbackItemColumn>(row: FeedbackColumns<C>, columns: readonly C[]): FeedbackFields<C> {
  let pick = PICKERS.get(columns);
  if (!pick) {
    pick = compile('row', `{${columns.map((column) => `${key(FIELD_OF.get(column)!)}: row[${key(column)}]`).join(', ')}}`);
    PICKERS.set(columns, pick);
  }
  return pick(row) as FeedbackFields<C>;
}

const ALL_COLUMNS = FEEDBACK_ITEM_COLUMNS.map(([column]) => column);

/** The item a full row (every written column) holds. */
export function fromFeedbackRow(row: FeedbackColumns<FeedbackItemColumn>): FeedbackItemFields {
  return pickFeedbackFields(row, ALL_COLUMNS);
}
