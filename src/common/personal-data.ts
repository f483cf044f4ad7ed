/**
 * The map of personal data: every table that keeps rows keyed by a session (or experiment unit) id.
 * Each module declares its own rows next to its module entry; the composition root hands the whole
 * map to one eraser, so a privacy request removes every row in one transaction and a new table
 * that forgets to declare itself is caught by the erasure test, which scans every text column.
 */
export interface PersonalDataTable {
  /** Table name as in storage/schema.ts. */
  readonly table: string;
  /** The column that holds the session / unit id. */
  readonly column: string;
  /** Name of the kind in the erasure report (`removed.<kind>`). */
  readonly kind: string;
  /**
   * How the column holds the id: by default it is the id itself. Composite keys: `prefix` + id exactly
   * (`startsWith: false`) or as the start of the value, followed by `separator` (`startsWith: true`).
   */
  readonly key?: { prefix: string; startsWith?: boolean; separator?: string };
  /**
   * Rows keyed by something the session's feedback names rather than by the session itself, e.g. a
   * search's `queryId`: the column equals `prefix` + each value of the session's `feedback_items` column.
   * Erased before the feedback rows that name them.
   */
  readonly viaFeedback?: { column: 'query_id'; prefix: string };
}

/** Rows removed per kind, e.g. `{ feedbackItems: 3, experimentUnits: 1 }`. */
export type ErasureReport = Record<string, number>;

export interface SessionEraser {
  /** Deletes every row of every declared table keyed by `sessionId`, in one transaction. */
  eraseSession(sessionId: string): Promise<ErasureReport>;
}
