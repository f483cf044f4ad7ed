import { Type, type Static } from 'typebox';
import { StringEnum } from '../http/string-enum.js';

export const MODEL_TYPES = ['click_model', 'ranker', 'engagement_predictor'] as const;
export const MODEL_STATUSES = ['pending', 'training', 'ready', 'failed', 'archived'] as const;
export type ModelType = (typeof MODEL_TYPES)[number];
export type ModelStatus = (typeof MODEL_STATUSES)[number];

export const MODEL_CONFIG_MAX_BYTES = 16 * 1024;

const ModelTypeSchema = StringEnum(MODEL_TYPES);
const ModelStatusSchema = StringEnum(MODEL_STATUSES);

export const ModelCreateBody = Type.Object(
  {
    modelId: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$',
        description: 'Your own id (letters, digits, _ . -; ≤ 64). Absent: a ULID is generated.',
      }),
    ),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: ModelTypeSchema,
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Algorithm and hyper-parameters (≤ 16 KiB serialized).' }),
    ),
  },
  { additionalProperties: false },
);
export type ModelCreateBody = Static<typeof ModelCreateBody>;

export const ModelView = Type.Object({
  modelId: Type.String(),
  name: Type.String(),
  type: ModelTypeSchema,
  status: ModelStatusSchema,
  metrics: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Held-out metrics of the active version; {} until a version is trained.',
  }),
  lastUpdated: Type.String({ format: 'date-time', description: 'Time of the last status change.' }),
  config: Type.Record(Type.String(), Type.Unknown()),
  error: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  activeVersion: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The version rank/export/judgments use; null until one is trained.',
  }),
  lastTraining: Type.Union(
    [
      Type.Object({
        at: Type.String({ format: 'date-time' }),
        version: Type.Union([Type.Integer(), Type.Null()]),
        outcome: StringEnum(['activated', 'rejected', 'failed', 'skipped'] as const),
        message: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ],
    { description: 'What the last run did: activated a version, rejected a worse one, failed, or found no data.' },
  ),
  nextTrainingAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Next scheduled retrain (config.retrainEvery).',
  }),
});
export type ModelView = Static<typeof ModelView>;

export const ModelIdParams = Type.Object({ modelId: Type.String({ minLength: 1, maxLength: 64 }) });

export const ModelListQuery = Type.Object(
  {
    type: Type.Optional(ModelTypeSchema),
    status: Type.Optional(ModelStatusSchema),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type ModelListQuery = Static<typeof ModelListQuery>;

export const ModelPage = Type.Object({
  items: Type.Array(ModelView),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
