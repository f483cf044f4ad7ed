import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/string-enum.js';

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
