/**
 * The additive counters of an analytics hour row (migration 0020; the spans of migration 0021 sum
 * the same columns): the one list the fold, the stores and the table types derive from, so a counter
 * added here and forgotten elsewhere does not compile. fc_01…fc_20 count first clicks at that
 * position, fc_21 those beyond.
 */
export const ANALYTICS_COUNTERS = [
  'searches',
  'abandoned',
  'sessions',
  'impressions',
  'clicks',
  'conversions',
  'first_clicks',
  'first_click_position_sum',
  'zero_result_searches',
  'result_count_searches',
  'first_click_rr_sum',
  'fc_01',
  'fc_02',
  'fc_03',
  'fc_04',
  'fc_05',
  'fc_06',
  'fc_07',
  'fc_08',
  'fc_09',
  'fc_10',
  'fc_11',
  'fc_12',
  'fc_13',
  'fc_14',
  'fc_15',
  'fc_16',
  'fc_17',
  'fc_18',
  'fc_19',
  'fc_20',
  'fc_21',
] as const;

/** One counter column of the analytics hour and span tables. */
export type AnalyticsCounterColumn = (typeof ANALYTICS_COUNTERS)[number];
