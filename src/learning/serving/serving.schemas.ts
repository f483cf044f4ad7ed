import { Type, type Static } from 'typebox';
import { StringEnum } from '../http/string-enum.js';

export const TrainBody = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({ description: 'Activate the new version even if it is worse on held-out data than the active one.' }),
    ),
  },
  { additionalProperties: false },
);
export type TrainBody = Static<typeof TrainBody>;

export const TrainingJobView = Type.Object({
  jobId: Type.String(),
  modelId: Type.String(),
  status: StringEnum(['queued', 'running', 'succeeded', 'failed'] as const),
  reason: StringEnum(['created', 'manual', 'schedule', 'dataset'] as const),
  force: Type.Boolean(),
  requestedAt: Type.String({ format: 'date-time' }),
});
export type TrainingJobView = Static<typeof TrainingJobView>;

export const VersionView = Type.Object({
  version: Type.Integer(),
  active: Type.Boolean(),
  outcome: StringEnum(['activated', 'rejected'] as const),
  message: Type.Union([Type.String(), Type.Null()]),
  metrics: Type.Record(Type.String(), Type.Unknown()),
  counts: Type.Record(Type.String(), Type.Number()),
  window: Type.Union([Type.Object({ from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) }), Type.Null()]),
  trainingSeconds: Type.Number(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type VersionView = Static<typeof VersionView>;

export const VersionListQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type VersionListQuery = Static<typeof VersionListQuery>;

export const VersionPage = Type.Object({ items: Type.Array(VersionView), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const RANK_MAX_RESULTS = 1000;
const FeatureMap = Type.Record(Type.String({ maxLength: 128 }), Type.Number(), {
  maxProperties: 512,
  description: 'Feature name → value.',
});

export const RankBody = Type.Object(
  {
    queryHash: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    context: Type.Optional(
      Type.Object(
        {
          deviceType: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          searchType: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          language: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          viewport: Type.Optional(
            Type.Object(
              { width: Type.Number({ exclusiveMinimum: 0 }), height: Type.Number({ exclusiveMinimum: 0 }) },
              { additionalProperties: false },
            ),
          ),
          hour: Type.Optional(Type.Integer({ minimum: 0, maximum: 23 })),
        },
        { additionalProperties: false, description: 'engagement_predictor: the search context.' },
      ),
    ),
    results: Type.Array(
      Type.Object(
        {
          resultId: Type.String({ minLength: 1, maxLength: 256 }),
          position: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
          category: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
          features: Type.Optional(FeatureMap),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: RANK_MAX_RESULTS },
    ),
  },
  { additionalProperties: false },
);
export type RankBody = Static<typeof RankBody>;

export const RankQuery = Type.Object({ explain: Type.Boolean({ default: false }) }, { additionalProperties: false });

export const RankedResult = Type.Object({
  resultId: Type.String(),
  score: Type.Number(),
  rank: Type.Integer(),
  originalPosition: Type.Integer(),
  explanation: Type.Optional(Type.Object({ bias: Type.Number(), contributions: Type.Record(Type.String(), Type.Number()) })),
});
export const RankResponse = Type.Object({
  modelId: Type.String(),
  version: Type.Integer(),
  scoreType: StringEnum(['relevance', 'ranker-margin', 'probability'] as const),
  results: Type.Array(RankedResult),
});
export type RankResponse = Static<typeof RankResponse>;

export const JudgmentsQuery = Type.Object(
  {
    format: StringEnum(['json', 'ranklib', 'csv'] as const, { default: 'json' }),
    minImpressions: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10 }),
    grades: StringEnum(['fixed', 'quantile'] as const, { default: 'fixed' }),
  },
  { additionalProperties: false },
);
export type JudgmentsQuery = Static<typeof JudgmentsQuery>;

export const ExportQuery = Type.Object(
  { format: StringEnum(['xgboost-json', 'ltr-plugin', 'native'] as const, { default: 'xgboost-json' }) },
  { additionalProperties: false },
);
export type ExportQuery = Static<typeof ExportQuery>;

export const DatasetView = Type.Object({
  modelId: Type.String(),
  format: Type.Literal('letor'),
  bytes: Type.Integer(),
  rows: Type.Integer(),
  queries: Type.Integer(),
  features: Type.Integer(),
  uploadedAt: Type.String({ format: 'date-time' }),
  training: Type.Union([TrainingJobView, Type.Null()], {
    description: 'The training job the upload queued (null when one was already waiting).',
  }),
});
export type DatasetView = Static<typeof DatasetView>;
