import { Type } from 'typebox';

// Interleaving experiments' results: per pair of rankers, team balance, and for multileaving the matrix and order.
const Interval = Type.Union([Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), Type.Null()]);
const NullNumber = Type.Union([Type.Number(), Type.Null()]);

export const InterleavingPairView = Type.Object({
  variantId: Type.String(),
  opponentVariantId: Type.String(),
  queries: Type.Integer(),
  wins: Type.Integer(),
  losses: Type.Integer(),
  ties: Type.Integer(),
  units: Type.Integer(),
  preference: Type.Union([Type.Number(), Type.Null()], { description: '(wins + ties/2)/queries − 0.5, from variantId’s side.' }),
  ci: Interval,
  share: Type.Union([Type.Number(), Type.Null()], { description: 'Share of decided queries variantId won.' }),
  shareCi: Interval,
  pValue: NullNumber,
  adjustedPValue: NullNumber,
  significant: Type.Boolean(),
  winner: Type.Union([Type.String(), Type.Null()]),
  test: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
});

export const InterleavingResultsView = Type.Object({
  method: Type.String(),
  depth: Type.Integer(),
  queries: Type.Integer({ description: 'Interleaved lists recorded in the phase.' }),
  units: Type.Integer(),
  pairs: Type.Array(InterleavingPairView),
  balance: Type.Object({
    passed: Type.Boolean(),
    positionShares: Type.Record(Type.String(), Type.Number(), { description: 'Each team’s share of the credited (top-depth) positions.' }),
    positionsPValue: NullNumber,
    firstPicks: Type.Record(Type.String(), Type.Integer()),
    firstPicksPValue: NullNumber,
    note: Type.Union([Type.String(), Type.Null()]),
  }),
  ignoredClicks: Type.Object({
    notShown: Type.Integer(),
    belowDepth: Type.Integer(),
    beforeList: Type.Integer(),
    repeated: Type.Integer(),
  }),
  matrix: Type.Optional(
    Type.Object({
      variantIds: Type.Array(Type.String()),
      preference: Type.Array(Type.Array(NullNumber), { description: 'Row over column; Holm-corrected significance is in pairs.' }),
    }),
  ),
  order: Type.Optional(
    Type.Array(
      Type.Object({
        variantId: Type.String(),
        rank: Type.Integer(),
        copeland: Type.Integer(),
        significantWins: Type.Integer(),
        significantLosses: Type.Integer(),
        meanPreference: NullNumber,
      }),
    ),
  ),
});
