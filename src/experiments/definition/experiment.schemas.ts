import { Type, type Static } from 'typebox';
import { Page, PageQuery } from '../../http/page.js';
import { StringEnum } from '../../http/string-enum.js';
import { EXPERIMENT_LIMITS } from './experiment-rules.js';
import { EXPERIMENT_STATES } from '../lifecycle/lifecycle.js';
import { METRIC_NAMES } from '../../vocabulary/index.js';

export const VariantInput = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: 'Unique within the experiment.' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Display name; defaults to the id.' })),
    weight: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Share of allocated traffic in [0, 1]; weights sum to 1 (±1e-6). Omit on every variant for an equal split.',
      }),
    ),
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form settings handed to the front end (≤ 8 KiB).' }),
    ),
  },
  { additionalProperties: false },
);

export const LayerInput = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    range: Type.Tuple([Type.Number({ minimum: 0, maximum: 1 }), Type.Number({ minimum: 0, maximum: 1 })], {
      description: '[start, end) slice of the layer; experiments of one layer with disjoint slices never share a unit.',
    }),
  },
  { additionalProperties: false, description: 'Mutual exclusion: GrowthBook namespace semantics.' },
);

export const AnalysisInput = Type.Object(
  {
    method: Type.Optional(
      StringEnum(['fixed', 'sequential'] as const, {
        description: 'fixed horizon (one look) or sequential (always-valid; safe to look daily). Default fixed.',
      }),
    ),
    alpha: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 0.5, description: 'Significance level, default 0.05.' })),
    correction: Type.Optional(
      StringEnum(['holm', 'benjamini-hochberg', 'none'] as const, {
        description: 'Across target metrics × treatment variants; default holm.',
      }),
    ),
    sequentialTuning: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'N* of the confidence sequence, default 5000.' }),
    ),
    mde: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 10, description: 'Relative effect the reported power refers to, default 0.05.' }),
    ),
    bayesianPrior: Type.Optional(
      StringEnum(['improper', 'proper'] as const, {
        description: 'improper (flat) or proper N(0, 0.3²) on relative lift; default improper.',
      }),
    ),
    cuped: Type.Optional(Type.Boolean({ description: 'Use pre-exposure covariates when units have them; default true.' })),
  },
  { additionalProperties: false },
);

export const ExperimentConfigurationInput = Type.Object(
  {
    variants: Type.Array(VariantInput, { minItems: 2, maxItems: EXPERIMENT_LIMITS.maxVariants }),
    trafficAllocation: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        default: 1,
        description: 'Fraction of units that enter the experiment, in (0, 1]; default 1.',
      }),
    ),
    targetMetrics: Type.Optional(
      Type.Array(StringEnum(METRIC_NAMES), {
        minItems: 1,
        maxItems: EXPERIMENT_LIMITS.maxTargetMetrics,
        description: `Names from the metric catalogue: ${METRIC_NAMES.join(', ')}. Default ["ctr"].`,
      }),
    ),
    seed: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Hash seed (GrowthBook hash v2); default the experiment id. Phase k > 0 uses "<seed>:<k>".',
      }),
    ),
    layer: Type.Optional(LayerInput),
    conditions: Type.Optional(
      Type.Unknown({
        description:
          'Targeting on assign attributes: a subset of GrowthBook conditions (equality, $in/$nin, $gt/$gte/$lt/$lte, $and/$or/$not).',
      }),
    ),
    controlVariantId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'The baseline of comparisons; default the first variant.' }),
    ),
    analysis: Type.Optional(AnalysisInput),
  },
  { additionalProperties: false },
);

export const ExperimentCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Unique among experiments.' }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    startDate: Type.Optional(Type.String({ format: 'date-time' })),
    endDate: Type.Optional(Type.String({ format: 'date-time', description: 'Must be after startDate.' })),
    configuration: ExperimentConfigurationInput,
  },
  { additionalProperties: false },
);
export type ExperimentCreateBody = Static<typeof ExperimentCreateBody>;

export const VariantView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  weight: Type.Number(),
  config: Type.Record(Type.String(), Type.Unknown()),
});
export type VariantView = Static<typeof VariantView>;

/** What an experiment is: the API's view of it without anything that depends on the time it is read (the audit log records this). */
export const ExperimentSnapshot = Type.Object({
  experimentId: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  status: StringEnum(EXPERIMENT_STATES),
  startDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  endDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  variants: Type.Array(VariantView),
  configuration: Type.Object({
    variants: Type.Array(VariantView),
    trafficAllocation: Type.Number(),
    targetMetrics: Type.Array(Type.String()),
    seed: Type.Optional(Type.String()),
    layer: Type.Optional(Type.Object({ id: Type.String(), range: Type.Array(Type.Number()) })),
    conditions: Type.Optional(Type.Unknown()),
    controlVariantId: Type.Optional(Type.String()),
    analysis: Type.Object({
      method: Type.String(),
      alpha: Type.Number(),
      correction: Type.String(),
      sequentialTuning: Type.Number(),
      mde: Type.Number(),
      bayesianPrior: Type.String(),
      cuped: Type.Boolean(),
    }),
  }),
  phase: Type.Integer({ description: 'Current phase; a new phase re-randomizes with a new seed.' }),
  conclusion: Type.Union([
    Type.Object({
      decision: Type.String(),
      winnerVariantId: Type.Union([Type.String(), Type.Null()]),
      notes: Type.Union([Type.String(), Type.Null()]),
      concludedAt: Type.String({ format: 'date-time' }),
      forced: Type.Optional(Type.Boolean({ description: 'Shipped over a failed SRM check.' })),
    }),
    Type.Null(),
  ]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type ExperimentSnapshot = Static<typeof ExperimentSnapshot>;

export const MANUAL_LIFECYCLE_ACTIONS = ['start', 'pause', 'resume', 'stop', 'conclude', 'archive'] as const;

export const ExperimentView = Type.Object({
  ...ExperimentSnapshot.properties,
  allowedActions: Type.Array(StringEnum(MANUAL_LIFECYCLE_ACTIONS), {
    description:
      'Lifecycle moves that would succeed now (POST …/{action}), given the status and dates; any other is a 409. conclude may still be refused while the sample-ratio check fails, unless forced.',
  }),
});
export type ExperimentView = Static<typeof ExperimentView>;

export const ExperimentIdParams = Type.Object({ experimentId: Type.String({ minLength: 1, maxLength: 64 }) });

export const ExperimentListQuery = PageQuery({ status: Type.Optional(StringEnum(EXPERIMENT_STATES)) }, { max: 200, default: 50 });
export type ExperimentListQuery = Static<typeof ExperimentListQuery>;

export const ExperimentPage = Page(ExperimentView);
