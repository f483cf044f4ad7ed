import { ACTION_SQL, isClick, isImpression, isSatisfiedClick } from './actions.js';

/** The fields of a feedback item that metrics read. */
export interface MetricItem {
  userAction: string | null;
  rating: number | null;
  position: number | null;
  dwellTime: number | null;
  timeToClick: number | null;
  scrollDepth: number | null;
}

/**
 * One item as attribution sees it: the item, and where it falls in its unit's data (worked out
 * by the attribution planner from the vocabulary, so every fold reads the same facts).
 */
export interface FoldContext {
  item: MetricItem;
  /** The first item of its search (queryId) for this unit. */
  opensSearch: boolean;
  /** The first click of its search. */
  firstClickOfSearch: boolean;
  /** The unit's first conversion. */
  firstConversion: boolean;
}

/** How much one item adds to a per-unit sum. */
export type Fold = (c: FoldContext) => number;

/** A per-unit quantity as a signed sum of unit-stat columns; `one` is the constant 1. */
export type LinearTerm = readonly [string, number];

export interface MetricDefinition {
  name: string;
  direction: 'higher' | 'lower';
  /** In words, for docs/statistics.md and the API's descriptions. */
  numerator: string;
  denominator: string;
  /** The per-unit sums this metric adds (a column of experiment_units each), with how an item adds to them. */
  stats: Readonly<Record<string, Fold>>;
  /** The metric's per-session numerator X and denominator Y from the unit sums. */
  x: readonly LinearTerm[];
  y: readonly LinearTerm[];
  /**
   * X and Y as SQL aggregates over one session's raw feedback_items rows (planning baselines,
   * pre-exposure covariates); `search` instead when the metric needs per-search grouping first,
   * over a subquery `s` of one row per search with `has_click` (0/1) and `rr` (1/position of its
   * best click); such metrics get no pre-exposure covariate.
   */
  sql: { session: { x: string; y: string } } | { search: { x: string } };
}

const flag = (condition: string) => `case when ${condition} then 1 else 0 end`;
const one = (condition: boolean) => (condition ? 1 : 0);

/**
 * The metrics an experiment can target. Each is a ratio of per-session sums (X over Y), analysed
 * with the delta method; a proportion of sessions has Y = 1. Adding a metric is one row here plus
 * a migration adding its `stats` columns to experiment_units; the unit-stat columns, empty sums,
 * attribution's update and the variant sums are all derived from this list.
 */
export const METRIC_CATALOGUE = [
  {
    name: 'ctr',
    direction: 'higher',
    numerator: 'clicks',
    denominator: 'impressions',
    stats: {
      impressions: (c) => one(isImpression(c.item.userAction)),
      clicks: (c) => one(isClick(c.item.userAction)),
    },
    x: [['clicks', 1]],
    y: [['impressions', 1]],
    sql: { session: { x: `sum(${flag(ACTION_SQL.isClick)})`, y: `sum(${flag(ACTION_SQL.isImpression)})` } },
  },
  {
    name: 'abandonment_rate',
    direction: 'lower',
    numerator: 'searches without a click',
    denominator: 'searches',
    stats: {
      searches: (c) => one(c.opensSearch),
      searches_with_click: (c) => one(c.firstClickOfSearch),
    },
    x: [
      ['searches', 1],
      ['searches_with_click', -1],
    ],
    y: [['searches', 1]],
    sql: { search: { x: 'count(*) - sum(s.has_click)' } },
  },
  {
    name: 'mrr',
    direction: 'higher',
    numerator: 'Σ 1/position of the first click per search',
    denominator: 'searches',
    stats: { rr_sum: (c) => (c.firstClickOfSearch && c.item.position !== null ? 1 / c.item.position : 0) },
    x: [['rr_sum', 1]],
    y: [['searches', 1]],
    // Over raw rows the best clicked position of a search stands in for its first click.
    sql: { search: { x: 'sum(s.rr)' } },
  },
  {
    name: 'mean_rating',
    direction: 'higher',
    numerator: 'rating sum',
    denominator: 'rated items',
    stats: {
      rated_items: (c) => one(c.item.rating !== null),
      rating_sum: (c) => c.item.rating ?? 0,
    },
    x: [['rating_sum', 1]],
    y: [['rated_items', 1]],
    sql: { session: { x: 'coalesce(sum(rating), 0)', y: 'count(rating)' } },
  },
  {
    name: 'dwell_time',
    direction: 'higher',
    numerator: 'dwell time sum (ms)',
    denominator: 'clicks with a dwell time',
    stats: {
      dwell_sum: (c) => c.item.dwellTime ?? 0,
      dwell_count: (c) => one(c.item.dwellTime !== null),
    },
    x: [['dwell_sum', 1]],
    y: [['dwell_count', 1]],
    sql: { session: { x: 'coalesce(sum(dwell_time), 0)', y: 'count(dwell_time)' } },
  },
  {
    name: 'time_to_click',
    direction: 'lower',
    numerator: 'time-to-click sum (ms)',
    denominator: 'clicks with a time to click',
    stats: {
      ttc_sum: (c) => c.item.timeToClick ?? 0,
      ttc_count: (c) => one(c.item.timeToClick !== null),
    },
    x: [['ttc_sum', 1]],
    y: [['ttc_count', 1]],
    sql: { session: { x: 'coalesce(sum(time_to_click), 0)', y: 'count(time_to_click)' } },
  },
  {
    name: 'satisfied_click_rate',
    direction: 'higher',
    numerator: 'clicks with dwell ≥ 30 s',
    denominator: 'clicks',
    stats: { satisfied_clicks: (c) => one(isSatisfiedClick(c.item.userAction, c.item.dwellTime)) },
    x: [['satisfied_clicks', 1]],
    y: [['clicks', 1]],
    sql: { session: { x: `sum(${flag(ACTION_SQL.isSatisfiedClick)})`, y: `sum(${flag(ACTION_SQL.isClick)})` } },
  },
  {
    name: 'scroll_depth',
    direction: 'higher',
    numerator: 'scroll depth sum',
    denominator: 'items with a scroll depth',
    stats: {
      scroll_sum: (c) => c.item.scrollDepth ?? 0,
      scroll_count: (c) => one(c.item.scrollDepth !== null),
    },
    x: [['scroll_sum', 1]],
    y: [['scroll_count', 1]],
    sql: { session: { x: 'coalesce(sum(scroll_depth), 0)', y: 'count(scroll_depth)' } },
  },
  {
    name: 'conversion_rate',
    direction: 'higher',
    numerator: 'sessions with a conversion (0/1)',
    denominator: 'sessions (1)',
    stats: { conversions: (c) => one(c.firstConversion) },
    x: [['conversions', 1]],
    y: [['one', 1]],
    sql: { session: { x: `max(${flag(ACTION_SQL.isConversion)})`, y: '1' } },
  },
] as const satisfies readonly MetricDefinition[];

type Catalogue = (typeof METRIC_CATALOGUE)[number];
export type MetricName = Catalogue['name'];
export const METRIC_NAMES = METRIC_CATALOGUE.map((m) => m.name) as readonly MetricName[];

type StatsOf<M> = M extends { stats: infer S } ? keyof S : never;
/** A column of experiment_units holding a per-unit sum. */
export type UnitStatColumn = StatsOf<Catalogue>;
/** Per-unit sufficient statistics, kept up to date by attribution. */
export type UnitStats = Record<UnitStatColumn, number>;

/** Every unit-stat column, in catalogue order. */
export const UNIT_STAT_COLUMNS = METRIC_CATALOGUE.flatMap((m) => Object.keys(m.stats)) as readonly UnitStatColumn[];

/** Each unit-stat column's fold, by column. */
export const UNIT_STAT_FOLDS = Object.fromEntries(
  METRIC_CATALOGUE.flatMap((m) => Object.entries(m.stats) as [UnitStatColumn, Fold][]),
) as Readonly<Record<UnitStatColumn, Fold>>;

export const emptyStats = (): UnitStats => Object.fromEntries(UNIT_STAT_COLUMNS.map((c) => [c, 0])) as UnitStats;

export function metricDefinition(name: MetricName): Catalogue {
  return METRIC_CATALOGUE.find((m) => m.name === name)!;
}

/** Evaluates a metric's X or Y terms on one unit's sums. */
export const linearValue = (stats: UnitStats, terms: readonly LinearTerm[]): number =>
  terms.reduce((acc, [column, k]) => acc + k * (column === 'one' ? 1 : stats[column as UnitStatColumn]), 0);

/**
 * A unit's X and Y before any feedback: 0 for sums, but Y = 1 for a proportion of sessions. The
 * variant sums attribution keeps hold each unit's changes from these values, so whoever reads
 * them adds units × these (and their squares and product).
 */
export function startingValues(name: MetricName): { x: number; y: number } {
  const m = metricDefinition(name);
  const empty = emptyStats();
  return { x: linearValue(empty, m.x), y: linearValue(empty, m.y) };
}
