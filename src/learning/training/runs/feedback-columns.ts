/**
 * Feedback items of a training window, column by column: what the job runner reads from the
 * database and hands to a worker thread (plain arrays clone cheaply across the boundary).
 * Missing numbers are null.
 */
export interface FeedbackColumns {
  queryId: string[];
  queryHash: (string | null)[];
  resultId: (string | null)[];
  position: (number | null)[];
  action: (string | null)[];
  eventTime: number[];
  rating: (number | null)[];
  dwellTime: (number | null)[];
  deviceType: (string | null)[];
  searchType: (string | null)[];
  language: (string | null)[];
  category: (string | null)[];
  viewportWidth: (number | null)[];
  viewportHeight: (number | null)[];
  /** The client's extra customMetadata as JSON text (holds `features`), or null. */
  extra: (string | null)[];
}

export type FeedbackRow = { [K in keyof FeedbackColumns]: FeedbackColumns[K][number] };

export function emptyColumns(): FeedbackColumns {
  return {
    queryId: [],
    queryHash: [],
    resultId: [],
    position: [],
    action: [],
    eventTime: [],
    rating: [],
    dwellTime: [],
    deviceType: [],
    searchType: [],
    language: [],
    category: [],
    viewportWidth: [],
    viewportHeight: [],
    extra: [],
  };
}

export function appendRow(cols: FeedbackColumns, row: FeedbackRow): void {
  for (const key of Object.keys(cols) as (keyof FeedbackColumns)[]) (cols[key] as unknown[]).push(row[key]);
}

/** Row indices grouped by queryId (one search), in first-seen order. */
export function groupBySearch(cols: FeedbackColumns): number[][] {
  const groups = new Map<string, number[]>();
  for (let i = 0; i < cols.queryId.length; i += 1) {
    const id = cols.queryId[i] as string;
    let g = groups.get(id);
    if (g === undefined) {
      g = [];
      groups.set(id, g);
    }
    g.push(i);
  }
  return [...groups.values()];
}
