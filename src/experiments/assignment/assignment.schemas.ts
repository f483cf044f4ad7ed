import { Type, type Static } from 'typebox';
import { AssignAttributes } from '../model/schemas/assign-attributes.schemas.js';

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
