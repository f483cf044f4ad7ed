import { Type, type Static } from 'typebox';
import { Page, PageQuery } from '../../http/page.js';
import { StringEnum } from '../../http/string-enum.js';

// The offline-evaluation API of issue 26 (contract §B). Requests here; the library's numbers are
// mapped onto these views by evaluation-view.ts.

export const ESTIMATORS = ['ips', 'snips', 'dm-pbm', 'dm-dbn', 'dr'] as const;
export const DEFAULT_METRICS = ['mrr', 'clicks_per_search', 'ctr@10', 'abandonment_rate'] as const;
/** `ctr@k` with k 1..50, or one of the named metrics; checked by the service so the error names the item. */
export const METRIC_PATTERN = /^(mrr|clicks_per_search|abandonment_rate|satisfied_clicks|ctr@([1-9]|[1-4][0-9]|50))$/;

const Instant = (description: string) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Integer({ minimum: 0 })], {
    description: `${description} ISO-8601 date-time or epoch milliseconds.`,
  });

const ModelRef = Type.Object(
  {
    modelId: Type.String({ minLength: 1, maxLength: 64, description: 'A ranker of the registry.' }),
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'Default: the active version (resolved at creation).' })),
  },
  { additionalProperties: false },
);
const AliasRef = Type.Object(
  {
    alias: Type.String({ minLength: 1, maxLength: 64, description: "An alias; a cleared one means the engine's original (logged) order." }),
  },
  { additionalProperties: false },
);
const RankingsRef = Type.Object(
  {
    rankings: Type.Record(
      Type.String({ minLength: 1, maxLength: 256 }),
      Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 1000 }),
      {
        description: 'queryHash → result ids, rank 1 first (e.g. what another engine returned for a query set).',
      },
    ),
  },
  { additionalProperties: false },
);
export const RankingSource = Type.Union([ModelRef, AliasRef, RankingsRef]);
export type RankingSource = Static<typeof RankingSource>;

export const EvaluationCreateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    candidate: RankingSource,
    baseline: Type.Optional(RankingSource),
    from: Instant('Start of the logged window (inclusive).'),
    to: Instant('End of the logged window (exclusive).'),
    metrics: Type.Optional(
      Type.Array(Type.String({ maxLength: 32 }), {
        minItems: 1,
        maxItems: 10,
        description:
          'mrr, clicks_per_search, abandonment_rate, satisfied_clicks, ctr@k (k 1..50). Default mrr, clicks_per_search, ctr@10, abandonment_rate.',
      }),
    ),
    estimator: Type.Optional(StringEnum(ESTIMATORS, { description: 'Default snips.' })),
    depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'Top-k for coverage and metrics; default 10.' })),
  },
  { additionalProperties: false },
);
export type EvaluationCreateBody = Static<typeof EvaluationCreateBody>;

const Pair = Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '95 % interval [low, high].' });
const Estimate = Type.Object({ estimate: Type.Number(), interval: Pair });
export const PositionView = Type.Object({
  position: Type.Integer(),
  estimate: Type.Number({ description: 'Examination propensity relative to position 1.' }),
  interval: Pair,
  support: Type.Integer({ description: 'Harvested pairs informing this position; 0: no evidence (interval [0, 1]).' }),
});

const RankingView = Type.Union(
  [
    Type.Object({ kind: Type.Literal('model'), modelId: Type.String(), version: Type.Integer() }),
    Type.Object({
      kind: Type.Literal('alias'),
      alias: Type.String(),
      modelId: Type.Union([Type.String(), Type.Null()]),
      version: Type.Union([Type.Integer(), Type.Null()]),
    }),
    Type.Object({ kind: Type.Literal('rankings'), queries: Type.Integer() }),
    Type.Object({ kind: Type.Literal('logged') }),
  ],
  {
    description:
      'What was evaluated, resolved at creation (model: the version actually evaluated; alias with modelId null: cleared, the logged order).',
  },
);

export const MetricView = Type.Object({
  metric: Type.String(),
  candidate: Estimate,
  baseline: Estimate,
  difference: Estimate,
  relativeDifference: Estimate,
  effectiveSampleSize: Type.Number({ description: 'Kish effective sample size of the importance weights.' }),
  coverage: Type.Number({ description: "Share of the candidate's top-k with logged evidence." }),
});

export const EvaluationView = Type.Object({
  evaluationId: Type.String(),
  name: Type.String(),
  status: StringEnum(['running', 'done', 'failed'] as const),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  error: Type.Optional(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  createdBy: Type.String(),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  candidate: RankingView,
  baseline: RankingView,
  window: Type.Object({ from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) }),
  estimator: StringEnum(ESTIMATORS),
  depth: Type.Integer(),
  metricsRequested: Type.Array(Type.String()),
  searches: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Logged searches with impressions in the window; null while running.',
  }),
  queries: Type.Union([Type.Integer(), Type.Null()]),
  coverage: Type.Union([Type.Number(), Type.Null()], {
    description: "Share of the candidate's top-k with logged evidence, query-frequency weighted.",
  }),
  enoughCoverage: Type.Union([Type.Boolean(), Type.Null()], { description: 'false: too little evidence to estimate; metrics is empty.' }),
  propensities: Type.Array(PositionView),
  metrics: Type.Array(MetricView),
  observedBaseline: Type.Record(Type.String(), Type.Number(), { description: 'The raw logged (on-policy) value of each metric.' }),
  interleaving: Type.Union([
    Type.Object(
      { wins: Type.Number(), losses: Type.Number(), ties: Type.Number(), shareWon: Type.Number() },
      {
        description: 'Expected team-draft outcome of the candidate against the baseline, query-frequency weighted.',
      },
    ),
    Type.Null(),
  ]),
  intervalMethod: Type.Union([Type.String(), Type.Null()]),
  summary: Type.String(),
  warnings: Type.Array(Type.String(), {
    description:
      'What to know before trusting the numbers, e.g. that the candidate version learned from clicks inside this window (its prediction is optimistic).',
  }),
});
export type EvaluationView = Static<typeof EvaluationView>;

export const EvaluationAccepted = Type.Object({
  evaluationId: Type.String(),
  status: Type.Literal('running'),
  progress: Type.Number(),
});

export const EvaluationParams = Type.Object({ evaluationId: Type.String({ minLength: 1, maxLength: 64 }) });
export const EvaluationListQuery = PageQuery(
  { modelId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "Only evaluations of this model's versions." })) },
  { max: 200, default: 50 },
);
export type EvaluationListQuery = Static<typeof EvaluationListQuery>;
export const EvaluationPage = Page(EvaluationView);

export const PositionBiasQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'ISO-8601 or epoch ms; default 28 days before `to`.' })),
    to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'ISO-8601 or epoch ms; default now.' })),
    dimension: Type.Optional(
      StringEnum(['deviceType'] as const, { description: 'Also estimate per value of this context (Fang et al. 2019).' }),
    ),
  },
  { additionalProperties: false },
);
export type PositionBiasQuery = Static<typeof PositionBiasQuery>;

export const PositionBiasView = Type.Object({
  method: Type.Literal('allpairs'),
  window: Type.Object({ from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) }),
  searches: Type.Integer(),
  harvestedPairs: Type.Integer({ description: '(query, result) pairs seen at two or more positions.' }),
  positions: Type.Array(PositionView),
  pbm: Type.Array(Type.Object({ position: Type.Integer(), examination: Type.Number() }), {
    description:
      "The PBM click model's examination fitted on the same window, normalised so position 1 = 1, down to the deepest position any search showed (below it PBM has only its prior).",
  }),
  byDimension: Type.Optional(
    Type.Object({
      dimension: Type.String(),
      values: Type.Array(Type.Object({ value: Type.String(), positions: Type.Array(PositionView) })),
    }),
  ),
});
export type PositionBiasView = Static<typeof PositionBiasView>;

const Lift = Type.Object({ estimate: Type.Number(), interval: Pair });
export const TrackRecordView = Type.Object({
  pairs: Type.Array(
    Type.Object({
      evaluationId: Type.String(),
      experimentId: Type.String(),
      experimentName: Type.String(),
      variantKey: Type.String({ description: 'The experiment variant that served the evaluated version.' }),
      kind: StringEnum(['ab', 'interleaving'] as const),
      metric: Type.String({ description: 'The online metric (ab), or share_won (interleaving).' }),
      offlineMetric: Type.Optional(
        Type.String({
          description: 'ab: the offline metric whose relative difference predicted it (ctr@k and clicks_per_search both predict ctr).',
        }),
      ),
      predicted: Lift,
      observed: Lift,
      inside: Type.Boolean({
        description:
          'ab: the observed lift lies inside the predicted interval; interleaving: the predicted share lies inside the observed interval.',
      }),
      signAgrees: Type.Boolean(),
      experimentStatus: Type.String(),
    }),
  ),
  summary: Type.Object({
    pairs: Type.Integer(),
    insideShare: Type.Union([Type.Number(), Type.Null()]),
    signAgreement: Type.Union([Type.Number(), Type.Null()]),
    spearman: Type.Union([Type.Number(), Type.Null()], {
      description: 'Rank correlation of predicted and observed lifts (null below 3 pairs).',
    }),
  }),
});
export type TrackRecordView = Static<typeof TrackRecordView>;
