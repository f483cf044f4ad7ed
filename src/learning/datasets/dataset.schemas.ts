import { Type, type Static } from 'typebox';
import { TrainingJobView } from '../model/learning.schemas.js';

export const DatasetView = Type.Object({
  modelId: Type.String(),
  format: Type.Literal('letor'),
  bytes: Type.Integer(),
  rows: Type.Integer(),
  queries: Type.Integer(),
  features: Type.Integer(),
  uploadedAt: Type.String({ format: 'date-time' }),
  training: Type.Union([TrainingJobView, Type.Null()], {
    description: 'The training job the upload queued (null when one was already waiting).',
  }),
});
export type DatasetView = Static<typeof DatasetView>;
