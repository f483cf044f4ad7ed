import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/string-enum.js';
import { QueryDetailQuery, QueryDetailView } from '../analytics.schemas.js';
import { RANKER_SPEC_PATTERN } from './ranker-spec.js';

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const detail = QueryDetailView.properties;
const window = QueryDetailQuery.properties;

export const SIDE_BY_SIDE_MAX_K = 50;

const RankerSpec = (description: string, defaultValue?: string) =>
  Type.String({ pattern: RANKER_SPEC_PATTERN, description, ...(defaultValue ? { default: defaultValue } : {}) });

export const SideBySideQuery = Type.Object(
  {
    left: Type.Optional(RankerSpec('`original` (the engine’s logged order), `alias:<name>` or `model:<modelId>[@<version>]`.', 'original')),
    right: RankerSpec('The ranker to compare, e.g. `alias:production` or `model:ranker-a@5`.'),
    k: Type.Optional(
      Type.Integer({ minimum: 1, maximum: SIDE_BY_SIDE_MAX_K, default: 10, description: 'How many results each side lists.' }),
    ),
    from: window.from,
    to: window.to,
    dimension: window.dimension,
    value: window.value,
    model: window.model,
  },
  { additionalProperties: false },
);
export type SideBySideQuery = Static<typeof SideBySideQuery>;

const Movement = Type.Object({
  kind: StringEnum(['same', 'up', 'down', 'new'] as const, {
    description: 'up: this side ranks it higher than the other; down: lower; new: outside the other side’s top k.',
  }),
  by: Type.Integer({ description: 'Places moved (0 for same and new).' }),
  otherRank: Type.Integer({ description: 'Its rank on the other side among every candidate.' }),
});

const SideResult = Type.Object({
  resultId: Type.String(),
  rank: Type.Integer(),
  score: Type.Union([Type.Number(), Type.Null()], { description: 'The model’s score; null when the engine’s order serves.' }),
  originalPosition: Type.Integer({ description: 'Its place in the engine’s order (the candidates).' }),
  relevance: Type.Union([Type.Number(), Type.Null()], { description: 'The click model’s relevance; null when it has not seen the pair.' }),
  impressions: Type.Integer(),
  clicks: Type.Integer(),
  ctr: NullableNumber,
  movement: Movement,
});

const Side = Type.Object({
  ranker: Type.String({ description: 'The ranker as the request named it.' }),
  served: Type.Object({
    source: StringEnum(['original', 'alias', 'model'] as const, {
      description: 'original: the engine’s order (also for an alias that serves no model version).',
    }),
    alias: Type.Union([Type.String(), Type.Null()]),
    modelId: Type.Union([Type.String(), Type.Null()]),
    version: Type.Union([Type.Integer(), Type.Null()]),
    scoreType: Type.Union([StringEnum(['relevance', 'ranker-margin', 'probability'] as const), Type.Null()]),
  }),
  results: Type.Array(SideResult),
  summary: Type.Object({
    relevanceDcg: Type.Number({ description: 'DCG of the top k with the click model’s relevance as gain.' }),
    unjudged: Type.Integer({ description: 'Results in the top k the click model has no estimate for.' }),
  }),
});

export const SideBySideView = Type.Object({
  window: detail.window,
  dimension: detail.dimension,
  value: detail.value,
  dataFreshAsOf: detail.dataFreshAsOf,
  queryHash: Type.String(),
  queryText: detail.queryText,
  k: Type.Integer(),
  figures: detail.figures,
  relevanceModel: detail.relevanceModel,
  candidates: Type.Array(
    Type.Object({
      resultId: Type.String(),
      features: Type.Optional(Type.Record(Type.String(), Type.Number(), { description: 'The logged features a side’s ranker read.' })),
    }),
    {
      description:
        'The query’s logged results in the engine’s order (by mean logged position): exactly what each side ranked, so POST …/rank with these results and the queryHash serves the same order.',
    },
  ),
  left: Side,
  right: Side,
  overlap: Type.Integer({ description: 'Results in both top-k lists.' }),
});
export type SideBySideView = Static<typeof SideBySideView>;
