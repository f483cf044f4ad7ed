import { Type, type Static } from 'typebox';
import { Page, PageQuery } from '../../http/page.js';

export const ALIAS_PATTERN = '^[a-z0-9][a-z0-9._-]{0,63}$';

export const AliasParams = Type.Object({
  alias: Type.String({ pattern: ALIAS_PATTERN, description: 'Lower-case letters, digits, ".", "_", "-"; e.g. production.' }),
});

export const AliasPutBody = Type.Object(
  {
    modelId: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], {
      description: "A ranker of the registry; null clears the alias, which then serves the search engine's original order.",
    }),
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'A fixed version; without it the alias follows the active version.' })),
    reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Why, for the history.' })),
  },
  { additionalProperties: false },
);
export type AliasPutBody = Static<typeof AliasPutBody>;

const Target = Type.Object({ modelId: Type.String(), version: Type.Union([Type.Integer(), Type.Null()]) });
const TargetOrOriginal = (description: string) => Type.Union([Target, Type.Null()], { description });

export const AliasView = Type.Object({
  alias: Type.String(),
  modelId: Type.Union([Type.String(), Type.Null()], { description: "null: cleared; the alias serves the search engine's original order." }),
  version: Type.Union([Type.Integer(), Type.Null()], { description: 'null (with a modelId): follows the model’s active version.' }),
  servingVersion: Type.Union([Type.Integer(), Type.Null()], { description: 'The version POST /api/nous/rank serves now.' }),
  updatedAt: Type.String({ format: 'date-time' }),
  updatedBy: Type.String(),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the latest move was made.' }),
  experimentId: Type.Union([Type.String(), Type.Null()], { description: 'The experiment whose conclusion made the latest move.' }),
});
export type AliasView = Static<typeof AliasView>;

export const AliasEventView = Type.Object({
  eventId: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.String(),
  from: TargetOrOriginal("null: the alias served the engine's original order before (cleared, or new)."),
  to: TargetOrOriginal("null: cleared to the engine's original order."),
  reason: Type.Union([Type.String(), Type.Null()]),
  experimentId: Type.Union([Type.String(), Type.Null()], { description: 'The experiment whose conclusion made the move.' }),
});
export type AliasEventView = Static<typeof AliasEventView>;

export const AliasDeleteQuery = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Why, for the history.' })) },
  { additionalProperties: false },
);

export const AliasListQuery = PageQuery({}, { max: 200, default: 50 });
export const AliasPage = Page(AliasView);
export const AliasEventPage = Page(AliasEventView);
