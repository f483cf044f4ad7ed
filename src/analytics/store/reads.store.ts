import type { Counter, Counters, Dimension } from '../model/counters.js';

/** Which rows to read: a dimension value ('' and '' for all traffic) and hours [fromHour, toHour). */
export interface Slice {
  dimension: Dimension | '';
  value: string;
  fromHour: number;
  toHour: number;
}

export interface HourCounters {
  hour: number;
  counters: Counters;
  /** distinct queries in the hour (totalHours only) */
  queries?: number;
}

export interface QueryCounters {
  queryHash: string;
  counters: Counters;
  /** how many (query, hour) rows the sums cover: the query had feedback in the slice when > 0 */
  rows: number;
  /** true: read with `columns`, only those counters (and searches) are right */
  partial?: boolean;
}

export interface ResultCounts {
  resultId: string;
  position: number;
  impressions: number;
  clicks: number;
}

/** The read side of analytics: every answer the pages need, from the folded aggregates (never raw feedback). */
export interface AnalyticsReadsStore {
  /** When aggregation last reached the end of the backlog (null: never). */
  freshAsOf(): Promise<number | null>;
  /** Counters over all queries, per hour of the slice. */
  totalHours(slice: Slice): Promise<HourCounters[]>;
  /** Distinct queries per UTC day (start of the day → count) of the days the slice touches. */
  distinctPerDay(slice: Slice): Promise<Map<number, number>>;
  /** Searches over all queries in the slice. */
  totalSearches(slice: Slice): Promise<number>;
  /**
   * Counters per query summed over the slice (histogram columns left at 0), for queries with at
   * least `minSearches` searches (every query when `hashes` is given). With `columns`, the span
   * totals may be read with those counters only (and searches): such rows are marked `partial`.
   */
  queryTotals(
    slice: Slice,
    options: { minSearches: number; hashes?: readonly string[]; columns?: readonly Counter[] },
  ): Promise<QueryCounters[]>;
  /**
   * queryTotals of the slice with `minSearches`, and in the same state of the aggregates
   * queryTotals of the `previous` hours for those queries (minSearches 0) with impressions and
   * clicks only (the other counters may be 0): sorting the list by change needs the previous
   * window's CTR of every query it can list.
   */
  queryTotalsWithPrevious(
    slice: Slice,
    previous: { fromHour: number; toHour: number },
    options: { minSearches: number; columns?: readonly Counter[] },
  ): Promise<{ current: QueryCounters[]; previous: QueryCounters[] }>;
  /** Counters per query and hour for the given queries. */
  queryHours(slice: Slice, hashes: readonly string[]): Promise<(HourCounters & { queryHash: string })[]>;
  /** How many queries had feedback in the slice. */
  distinctQueries(slice: Slice): Promise<number>;
  /** Searches per query and bucket (start of a `bucketMs`-long UTC bucket) for the given queries: the list's sparklines. */
  searchTrends(
    slice: Slice,
    hashes: readonly string[],
    bucketMs: number,
  ): Promise<{ queryHash: string; bucket: number; searches: number }[]>;
  /** Impressions and clicks per result and position of one query over the hours (all traffic, or the items with that dimension value). */
  results(queryHash: string, fromHour: number, toHour: number, dimension?: { dimension: string; value: string }): Promise<ResultCounts[]>;
  /** Display texts (customMetadata.queryText) of the given queries, where one was sent. */
  texts(hashes: readonly string[]): Promise<Map<string, string>>;
  /** Whether analytics has ever seen the query. */
  knows(queryHash: string): Promise<boolean>;
}
