/**
 * Plain bulk inserts of feedback rows, shared by the import store and the benchmark's raw
 * ceiling (bench/import), so the two write the same rows with the same statements:
 * - SQLite: one prepared single-row INSERT per table, run row by row inside one transaction
 *   (better-sqlite3 is synchronous; a prepared statement is the cheapest way in).
 * - PostgreSQL: one INSERT … SELECT FROM unnest($1::type[], …) per table and batch: a single
 *   round trip and a single plan for thousands of rows.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { FeedbackRecord } from '../../feedback.store.js';
import { FEEDBACK_ITEM_COLUMNS as ITEM_COLUMNS, feedbackRowValues } from '../../../storage/tables/feedback-row.js';

type Value = string | number | null;

export interface SubmissionRow {
  id: string;
  sessionId: string;
  itemCount: number;
  receivedAt: number;
}

/** Prepared statements on one SQLite connection, prepared once and reused for every batch. */
export class SqliteBulkStatements {
  readonly insertItem: BetterSqlite3.Statement<[Value[]]>;
  readonly insertSubmission: BetterSqlite3.Statement<[Value[]]>;
  /** `changes` is 1 when the key was free (now claimed), 0 when it was already there. */
  readonly claimKey: BetterSqlite3.Statement<[Value[]]>;

  constructor(readonly connection: BetterSqlite3.Database) {
    const names = ITEM_COLUMNS.map(([name]) => `"${name}"`).join(', ');
    this.insertItem = connection.prepare<[Value[]]>(
      `insert into feedback_items (${names}) values (${ITEM_COLUMNS.map(() => '?').join(', ')})`,
    );
    this.insertSubmission = connection.prepare<[Value[]]>(
      'insert into feedback_submissions (id, session_id, item_count, received_at) values (?, ?, ?, ?)',
    );
    this.claimKey = connection.prepare<[Value[]]>(
      'insert into feedback_import_keys (import_key, item_id, imported_at) values (?, ?, ?) on conflict (import_key) do nothing',
    );
  }

  items(records: FeedbackRecord[]): void {
    for (const r of records) this.insertItem.run(feedbackRowValues(r));
  }

  submissions(rows: SubmissionRow[]): void {
    for (const s of rows) this.insertSubmission.run([s.id, s.sessionId, s.itemCount, s.receivedAt]);
  }
}

/** Columns of the records as PostgreSQL array parameters ($1 … $23, ITEM_COLUMNS order). */
export function itemArrays(records: FeedbackRecord[]): Value[][] {
  const arrays: Value[][] = ITEM_COLUMNS.map(() => new Array<Value>(records.length));
  records.forEach((r, i) => feedbackRowValues(r).forEach((v, c) => (arrays[c]![i] = v)));
  return arrays;
}

const itemNames = ITEM_COLUMNS.map(([name]) => `"${name}"`).join(', ');
const itemUnnest = (first: number) =>
  `unnest(${ITEM_COLUMNS.map(([, , type], i) => `$${first + i}::${type}[]`).join(', ')}) as u(${itemNames})`;

/** PostgreSQL: the items of one batch, and one submission row per submission id among them. */
export const PG_INSERT_ITEMS = `with items as (
  insert into feedback_items (${itemNames}) select ${itemNames} from ${itemUnnest(1)} returning submission_id, session_id
)
insert into feedback_submissions (id, session_id, item_count, received_at)
select submission_id, min(session_id), count(*), $${ITEM_COLUMNS.length + 1}::int8 from items group by submission_id`;

/**
 * PostgreSQL, one statement per import batch: claims each item's key (a key already there is a
 * duplicate), inserts the claimed items and their submission rows; answers the count inserted.
 * Parameters: the item arrays, then the keys, then imported_at.
 */
export const PG_IMPORT_ITEMS = `with input as (
  select * from ${itemUnnest(1)}
), keyed as (
  select k.import_key, k.id from unnest($${ITEM_COLUMNS.length + 1}::varchar[], $1::varchar[]) as k(import_key, id)
), claimed as (
  insert into feedback_import_keys (import_key, item_id, imported_at)
  select import_key, id, $${ITEM_COLUMNS.length + 2}::int8 from keyed
  on conflict (import_key) do nothing returning item_id
), items as (
  insert into feedback_items (${itemNames})
  select ${ITEM_COLUMNS.map(([name]) => `i."${name}"`).join(', ')} from input i join claimed c on c.item_id = i.id
  returning submission_id, session_id
), submissions as (
  insert into feedback_submissions (id, session_id, item_count, received_at)
  select submission_id, min(session_id), count(*), $${ITEM_COLUMNS.length + 2}::int8 from items group by submission_id
  returning item_count
)
select coalesce(sum(item_count), 0)::int as inserted from submissions`;
