import { Type, type Static } from 'typebox';

export const TrainBody = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({ description: 'Activate the new version even if it is worse on held-out data than the active one.' }),
    ),
  },
  { additionalProperties: false },
);
export type TrainBody = Static<typeof TrainBody>;
