import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/string-enum.js';
import { JOB_REASONS, JOB_STATUSES } from './training-job.js';

// Request and response schemas that the routes of several learning sub-domains share.

/** The `:modelId` of every `/api/nous/learn/models/:modelId/…` route. */
export const ModelIdParams = Type.Object({ modelId: Type.String({ minLength: 1, maxLength: 64 }) });

/** A queued training run, as `POST …/train` and a dataset upload answer it. */
export const TrainingJobView = Type.Object({
  jobId: Type.String(),
  modelId: Type.String(),
  status: StringEnum(JOB_STATUSES),
  reason: StringEnum(JOB_REASONS),
  force: Type.Boolean(),
  requestedAt: Type.String({ format: 'date-time' }),
});
export type TrainingJobView = Static<typeof TrainingJobView>;
