import { Type, type Static } from 'typebox';
import { Page, PageQuery } from '../../http/page.js';
import { StringEnum } from '../../http/string-enum.js';
import { MODEL_STATUSES, MODEL_TYPES } from '../model/model-types.js';
import { TRAINING_OUTCOMES, VERSION_OUTCOMES } from '../model/model-version.js';

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
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Algorithm and hyper-parameters (≤ 16 KiB serialized); unknown keys are 400s naming /config/<key>. ' +
          'A ranker learns from trainingData "feedback" (click-model judgments, the default), "clicks" (the clicks themselves; ' +
          'debiasing "none" | "ips" | "unbiased-lambdamart" (default), with ips optionally propensities and propensityClip) or "dataset". ' +
          'Every setting of each type: src/learning/README.md#config-names and docs/api/learning-and-aliases.md.',
      }),
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
        outcome: StringEnum(TRAINING_OUTCOMES),
        message: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ],
    {
      description:
        'What the last run did: activated a version, rejected a worse one, imported one without activating it, failed, or found no data.',
    },
  ),
  nextTrainingAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Next scheduled retrain (config.retrainEvery).',
  }),
});
export type ModelView = Static<typeof ModelView>;

export const ModelListQuery = PageQuery(
  { type: Type.Optional(ModelTypeSchema), status: Type.Optional(ModelStatusSchema) },
  { max: 200, default: 50 },
);
export type ModelListQuery = Static<typeof ModelListQuery>;

export const ModelPage = Page(ModelView);

/** What an imported version was: its file's format, size and objective. */
export const ImportedInfo = Type.Object(
  {
    format: StringEnum(['xgboost-json', 'xgboost-dump', 'lightgbm-text'] as const, {
      description: 'xgboost-dump: a get_dump JSON list sent as xgboost-json (it carries no base_score).',
    }),
    trees: Type.Integer(),
    features: Type.Integer(),
    objective: Type.String({ description: 'The objective as the file names it.' }),
    sourceFeatureNames: Type.Optional(Type.Array(Type.String(), { description: 'The file’s own names, when featureNames renamed them.' })),
    note: Type.Union([Type.String(), Type.Null()]),
  },
  { description: 'Imported from a model trained elsewhere: no held-out metrics were computed here.' },
);

export const VersionView = Type.Object({
  version: Type.Integer(),
  active: Type.Boolean(),
  outcome: StringEnum(VERSION_OUTCOMES),
  message: Type.Union([Type.String(), Type.Null()]),
  metrics: Type.Record(Type.String(), Type.Unknown()),
  counts: Type.Record(Type.String(), Type.Number()),
  window: Type.Union([Type.Object({ from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) }), Type.Null()]),
  trainingSeconds: Type.Number(),
  createdAt: Type.String({ format: 'date-time' }),
  source: Type.Optional(
    StringEnum(['trained', 'import'] as const, { description: 'trained here, or imported from a model file (POST …/versions/import).' }),
  ),
  imported: Type.Optional(ImportedInfo),
});
export type VersionView = Static<typeof VersionView>;

export const VersionListQuery = PageQuery({}, { max: 200, default: 50 });
export type VersionListQuery = Static<typeof VersionListQuery>;

export const VersionPage = Page(VersionView);

/** Request bodies of an import may be this large (a model file of thousands of trees). */
export const MODEL_IMPORT_MAX_BYTES = 32 * 1024 * 1024;

export const ModelImportBody = Type.Object(
  {
    format: StringEnum(['xgboost-json', 'lightgbm-text'] as const, {
      description:
        "xgboost-json: XGBoost's save_model JSON (or a get_dump(dump_format='json') list of trees); lightgbm-text: LightGBM's save_model text.",
    }),
    model: Type.String({ minLength: 1, description: 'The model file’s text.' }),
    featureNames: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 10_000,
        description:
          "The customMetadata.features key of the model's feature i, for every feature (default: the file's own names, feature_names).",
      }),
    ),
    activate: Type.Optional(Type.Boolean({ default: false, description: 'Make it the active version at once (default false).' })),
    note: Type.Optional(Type.String({ maxLength: 2000, description: 'Where it came from; kept on the version.' })),
  },
  { additionalProperties: false },
);
export type ModelImportBody = Static<typeof ModelImportBody>;

export const ImportedVersionView = Type.Object({ modelId: Type.String(), ...VersionView.properties });
export type ImportedVersionView = Static<typeof ImportedVersionView>;
