import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/string-enum.js';
import { JOB_REASONS, JOB_STATUSES } from './training-job.store.js';

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
  status: StringEnum(JOB_STATUSES),
  reason: StringEnum(JOB_REASONS),
  force: Type.Boolean(),
  requestedAt: Type.String({ format: 'date-time' }),
});
export type TrainingJobView = Static<typeof TrainingJobView>;
