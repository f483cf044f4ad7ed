import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/string-enum.js';
import { CHECKED_IN_HANDLER } from '../../http/validation.js';
import { AssignAttributes } from '../model/schemas/assign-attributes.schemas.js';

export const RANK_MAX_RESULTS = 1000;
export const RANK_MAX_FEATURES = 512;

// Checked by RankService (checkFeatures) rather than Ajv: the request's bulk, checked in one plain loop.
const FeatureMap = Type.Record(Type.String({ maxLength: 128 }), Type.Number(), {
  maxProperties: RANK_MAX_FEATURES,
  description: 'Feature name → value (finite numbers).',
  [CHECKED_IN_HANDLER]: true,
});

export const SearchRankBody = Type.Object(
  {
    unitId: Type.String({ minLength: 1, maxLength: 256, description: 'The sessionId its feedback will carry.' }),
    queryId: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The queryId its feedback will carry: clicks on this list are credited by it.',
    }),
    queryHash: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    results: Type.Array(
      Type.Object(
        { resultId: Type.String({ minLength: 1, maxLength: 256 }), features: Type.Optional(FeatureMap) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: RANK_MAX_RESULTS, description: 'In the search engine’s own order (the original order).' },
    ),
    attributes: Type.Optional(AssignAttributes),
    context: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { maxProperties: 20 })),
  },
  { additionalProperties: false },
);
export type SearchRankBody = Static<typeof SearchRankBody>;

export const ServedResult = Type.Object({
  resultId: Type.String(),
  rank: Type.Integer({ minimum: 1 }),
  score: Type.Optional(Type.Number({ description: 'The model’s score, when a model ordered the list.' })),
  team: Type.Optional(Type.String({ description: 'Interleaving: the variant whose ranker placed this result.' })),
});

export const Served = Type.Object({
  source: StringEnum(['experiment', 'alias', 'original'] as const),
  experimentId: Type.Optional(Type.String()),
  variantId: Type.Optional(Type.String()),
  modelId: Type.Optional(Type.String()),
  version: Type.Optional(Type.Integer()),
  alias: Type.Optional(Type.String()),
  method: Type.Optional(Type.String({ description: 'Interleaving method, for an interleaved list.' })),
});

export const RankExploration = Type.Object(
  {
    swapped: Type.Tuple([Type.Integer({ minimum: 1 }), Type.Integer({ minimum: 2 })], {
      description: 'The two adjacent 1-based ranks whose results were swapped (i, i + 1).',
    }),
    propensity: Type.Number({
      description: 'Probability that this list is shown given the unit is explored: 1 / (k − 1), k = min(depth, results).',
    }),
    overallPropensity: Type.Number({ description: 'share × propensity: the probability of this list over all units.' }),
  },
  {
    description:
      'Present only when the unit is in the exploration share (PUT /api/nous/rank/exploration): the served order with one adjacent pair swapped. Log the positions you display.',
  },
);

export const SearchRankResponse = Type.Object({
  queryId: Type.String(),
  results: Type.Array(ServedResult),
  served: Served,
  exploration: Type.Optional(RankExploration),
});
export type SearchRankResponse = Static<typeof SearchRankResponse>;

export const InterleaveBody = Type.Object(
  {
    unitId: Type.String({ minLength: 1, maxLength: 256 }),
    queryId: Type.String({ minLength: 1, maxLength: 256 }),
    rankings: Type.Record(
      Type.String({ minLength: 1, maxLength: 64 }),
      Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: RANK_MAX_RESULTS }),
      {
        minProperties: 1,
        maxProperties: 8,
        description: 'One list of result ids per variant id, best first (e.g. the two queries the client ran).',
      },
    ),
  },
  { additionalProperties: false },
);
export type InterleaveBody = Static<typeof InterleaveBody>;

export const InterleaveResponse = Type.Object({
  queryId: Type.String(),
  inExperiment: Type.Boolean({
    description: 'False when the unit is outside the experiment’s traffic: the control’s list is returned unteamed.',
  }),
  results: Type.Array(ServedResult),
  served: Served,
});
export type InterleaveResponse = Static<typeof InterleaveResponse>;
