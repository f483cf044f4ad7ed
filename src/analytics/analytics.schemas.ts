import { Type, type Static } from 'typebox';
import { StringEnum } from '../http/string-enum.js';
import { DIMENSIONS } from './model/counters.js';
import { QUERY_SORTS } from './model/query-list.js';

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const DateTime = (description: string) => Type.String({ format: 'date-time', description });

const windowFilters = {
  from: Type.Optional(DateTime('Start of the window (default: 7 days before `to`); rounded down to the hour.')),
  to: Type.Optional(DateTime('End of the window (default: now); rounded up to the hour. At most 400 days after `from`.')),
  dimension: Type.Optional(StringEnum(DIMENSIONS, { description: 'Restrict to one value of a dimension (needs `value`).' })),
  value: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'The dimension value, e.g. mobile.' })),
};
const interval = Type.Optional(
  StringEnum(['hour', 'day'] as const, { default: 'day', description: 'Bucket size of the time series (UTC).' }),
);

export const OverviewQuery = Type.Object({ ...windowFilters, interval }, { additionalProperties: false });
export type OverviewQuery = Static<typeof OverviewQuery>;

export const QueriesQuery = Type.Object(
  {
    ...windowFilters,
    sort: Type.Optional(StringEnum(QUERY_SORTS, { default: 'searches' })),
    order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
    minSearches: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 10, description: 'Leave out queries with fewer searches.' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 1200, description: 'nextCursor of the previous page (same sort and order).' })),
  },
  { additionalProperties: false },
);
export type QueriesQuery = Static<typeof QueriesQuery>;

export const QueryDetailQuery = Type.Object(
  {
    ...windowFilters,
    interval,
    model: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Click model whose relevance is shown (default: `default`).' }),
    ),
  },
  { additionalProperties: false },
);
export type QueryDetailQuery = Static<typeof QueryDetailQuery>;

export const QueryHashParams = Type.Object({ queryHash: Type.String({ minLength: 1, maxLength: 256 }) });

const FigureProps = {
  searches: Type.Integer({ description: 'Distinct queryId.' }),
  sessions: Type.Integer(),
  impressions: Type.Integer(),
  clicks: Type.Integer(),
  ctr: Type.Union([Type.Number(), Type.Null()], { description: 'clicks / impressions' }),
  abandonmentRate: Type.Union([Type.Number(), Type.Null()], { description: 'searches without a click / searches' }),
  meanFirstClickPosition: NullableNumber,
  mrr: Type.Union([Type.Number(), Type.Null()], { description: 'mean over searches of 1 / position of the first click (0 without one)' }),
  conversions: Type.Integer(),
  zeroResultSearches: Type.Integer({ description: 'searches whose customMetadata.resultCount was 0' }),
  zeroResultRate: Type.Union([Type.Number(), Type.Null()], { description: 'zero-result searches / searches that sent resultCount' }),
};

const Answered = {
  window: Type.Object({ from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) }),
  dimension: Type.Union([StringEnum(DIMENSIONS), Type.Null()]),
  value: Type.Union([Type.String(), Type.Null()]),
  dataFreshAsOf: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Every feedback item acknowledged before this time is in the figures.',
  }),
};

const SeriesPoint = Type.Object({ start: Type.String({ format: 'date-time' }), ...FigureProps });
const HistogramBar = Type.Object({ position: Type.String(), firstClicks: Type.Integer(), share: NullableNumber });

export const OverviewView = Type.Object({
  ...Answered,
  interval: StringEnum(['hour', 'day'] as const),
  totals: Type.Object({ ...FigureProps, distinctQueries: Type.Integer() }),
  series: Type.Array(
    Type.Object({
      start: Type.String({ format: 'date-time' }),
      ...FigureProps,
      distinctQueries: Type.Integer({ description: 'queries with feedback in the bucket (for a day: the whole UTC day)' }),
    }),
  ),
  histogram: Type.Array(HistogramBar),
});

const Change = Type.Object({
  previous: NullableNumber,
  delta: NullableNumber,
  pValue: NullableNumber,
  adjustedPValue: NullableNumber,
  significant: Type.Boolean(),
});

export const QueryRowView = Type.Object({
  queryHash: Type.String(),
  queryText: Type.Optional(Type.String({ description: 'customMetadata.queryText, when a client sent it' })),
  ...FigureProps,
  share: NullableNumber,
  change: Type.Object({ previousSearches: Type.Integer(), ctr: Change, abandonmentRate: Change }),
  trend: Type.Object({ interval: StringEnum(['hour', 'day'] as const), searches: Type.Array(Type.Integer()) }),
});

export const QueryPageView = Type.Object({
  ...Answered,
  items: Type.Array(QueryRowView),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

const PositionCounts = Type.Object({
  position: Type.Union([Type.Integer(), Type.Null()]),
  impressions: Type.Integer(),
  clicks: Type.Integer(),
  ctr: NullableNumber,
});

export const QueryDetailView = Type.Object({
  ...Answered,
  interval: StringEnum(['hour', 'day'] as const),
  queryHash: Type.String(),
  queryText: Type.Union([Type.String(), Type.Null()]),
  figures: Type.Object({ ...FigureProps, share: NullableNumber }),
  series: Type.Array(SeriesPoint),
  histogram: Type.Array(HistogramBar),
  positions: Type.Array(PositionCounts),
  results: Type.Array(
    Type.Object({
      resultId: Type.String(),
      impressions: Type.Integer(),
      clicks: Type.Integer(),
      ctr: NullableNumber,
      meanPosition: NullableNumber,
      byPosition: Type.Array(PositionCounts),
      relevance: Type.Union([Type.Number(), Type.Null()], {
        description: "the click model's relevance estimate; null when it has not seen the pair",
      }),
    }),
  ),
  relevanceModel: Type.Object({
    modelId: Type.String(),
    version: Type.Union([Type.Integer(), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()]),
  }),
});
