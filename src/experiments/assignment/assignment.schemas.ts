import { Type, type Static } from 'typebox';

const AttributeValue = Type.Union([
  Type.String({ maxLength: 256 }),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
  Type.Array(Type.Union([Type.String({ maxLength: 256 }), Type.Number()]), { maxItems: 50 }),
]);

export const AssignAttributes = Type.Object(
  {
    covariates: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.Number({ minimum: -1e12, maximum: 1e12 }), {
        maxProperties: 20,
        description: 'Pre-exposure values per metric name (for CUPED variance reduction), kept from the first exposure.',
      }),
    ),
  },
  {
    additionalProperties: AttributeValue,
    maxProperties: 50,
    description: 'Targeting attributes (strings, numbers, booleans, null, or arrays of strings/numbers), at most 50.',
  },
);

export const AssignOneBody = Type.Object(
  {
    unitId: Type.String({ minLength: 1, maxLength: 256, description: 'The sessionId its feedback will carry.' }),
    attributes: Type.Optional(AssignAttributes),
  },
  { additionalProperties: false },
);
export type AssignOneBody = Static<typeof AssignOneBody>;

export const AssignmentView = Type.Object({
  experimentId: Type.String(),
  inExperiment: Type.Boolean({ description: 'True when the unit is enrolled and measured.' }),
  variantId: Type.Union([Type.String(), Type.Null()], {
    description: 'The variant to serve; a concluded winner is served with inExperiment false.',
  }),
  variant: Type.Union([
    Type.Object({ id: Type.String(), name: Type.String(), config: Type.Record(Type.String(), Type.Unknown()) }),
    Type.Null(),
  ]),
  phase: Type.Integer(),
  reason: Type.String({
    description:
      'assigned | not_in_traffic | not_in_layer | conditions_not_met | concluded_winner | experiment_created | experiment_scheduled | experiment_paused | experiment_stopped | experiment_concluded | experiment_archived',
  }),
});
export type AssignmentView = Static<typeof AssignmentView>;

export const AssignAllView = Type.Object({
  unitId: Type.String(),
  assignments: Type.Array(AssignmentView, { description: 'One per running experiment (and per concluded one serving a winner).' }),
});
