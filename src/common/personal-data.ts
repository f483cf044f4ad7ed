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
}

/** Rows removed per kind, e.g. `{ feedbackItems: 3, experimentUnits: 1 }`. */
export type ErasureReport = Record<string, number>;

export interface SessionEraser {
  /** Deletes every row of every declared table keyed by `sessionId`, in one transaction. */
  eraseSession(sessionId: string): Promise<ErasureReport>;
}
