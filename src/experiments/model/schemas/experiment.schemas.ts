import { Type, type Static } from 'typebox';
import { PageQuery } from '../../../http/page.js';
import { StringEnum } from '../../../http/string-enum.js';
import { EXPERIMENT_LIMITS } from '../experiment-rules.js';
import { SLICE_DIMENSION_PATTERN } from '../slice-dimensions.js';
import { EXPERIMENT_STATES } from '../lifecycle.js';
import { ANALYSIS_METRIC_NAMES, METRIC_NAMES } from '../../../vocabulary/index.js';

export const ALIAS_PATTERN = '^[a-z0-9][a-z0-9._-]{0,63}$';

export const ModelRefInput = Type.Object(
  {
    modelId: Type.String({ minLength: 1, maxLength: 64, description: 'A ranker of the model registry.' }),
    version: Type.Optional(
      Type.Integer({ minimum: 1, description: 'A fixed version; without it the variant is pinned to the active version at start.' }),
    ),
  },
  {
    additionalProperties: false,
    description: 'The ranker behind this variant; a variant without a model is the original order (the engine’s own ranking).',
  },
);

export const InterleavingInput = Type.Object(
  {
    method: Type.Optional(
      StringEnum(['team-draft', 'team-draft-multileave'] as const, {
        description: 'team-draft (exactly 2 variants) or team-draft-multileave (3–8); default by the number of variants.',
      }),
    ),
    depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Interleaved positions that carry credit, default 10.' })),
  },
  { additionalProperties: false },
);

export const PromoteInput = Type.Object(
  {
    alias: Type.String({
      pattern: ALIAS_PATTERN,
      description: 'Model alias that concluding with ship moves to the winner’s pinned version (e.g. production).',
    }),
  },
  { additionalProperties: false },
);

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
    model: Type.Optional(ModelRefInput),
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

export const GuardrailInput = Type.Object(
  {
    metric: StringEnum(ANALYSIS_METRIC_NAMES),
    direction: Type.Optional(StringEnum(['higher', 'lower'] as const, { description: "Which way is good; default the catalogue's." })),
    margin: Type.Number({
      minimum: 0,
      maximum: 1e12,
      description: 'Largest tolerated degradation on the guardrail’s scale (relative 0.02 = 2 %; absolute in metric units).',
    }),
    scale: Type.Optional(
      StringEnum(['relative', 'absolute'] as const, { description: 'Scale of the margin, default relative; not changed by ?scale=.' }),
    ),
    autoPause: Type.Optional(
      Type.Boolean({ description: 'Pause the experiment (audit actor "guardrail") when the sequential test finds a breach.' }),
    ),
  },
  { additionalProperties: false },
);

export const PriorInput = Type.Object(
  {
    mean: Type.Number({ minimum: -1e12, maximum: 1e12 }),
    stdDev: Type.Number({ exclusiveMinimum: 0, maximum: 1e12 }),
    scale: Type.Optional(
      StringEnum(['relative', 'absolute'] as const, {
        description:
          'The scale the prior is stated on (default relative: stdDev 0.3 = ±30 %); converted with |control mean| for a read on the other.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CapInput = Type.Union(
  [
    Type.Object(
      { type: Type.Literal('percentile'), value: Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1, description: 'e.g. 0.99' }) },
      { additionalProperties: false },
    ),
    Type.Object(
      { type: Type.Literal('absolute'), value: Type.Number({ exclusiveMinimum: 0, maximum: 1e12 }) },
      { additionalProperties: false },
    ),
  ],
  { description: 'Cap on the per-unit value (ratio metrics: x ≤ cap·y per unit), from the pooled per-unit values of all arms.' },
);

export const AnalysisInput = Type.Object(
  {
    scale: Type.Optional(
      StringEnum(['relative', 'absolute'] as const, {
        description:
          'The one scale of the p-value, interval, significance, correction and Bayesian view: relative ((B − A)/|A|, default) or absolute (B − A).',
      }),
    ),
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
    guardrails: Type.Optional(
      Type.Array(GuardrailInput, {
        maxItems: EXPERIMENT_LIMITS.maxTargetMetrics,
        description: 'Metrics the experiment must not harm: one-sided non-inferiority tests, reported apart from the target metrics.',
      }),
    ),
    priors: Type.Optional(
      Type.Object(Object.fromEntries(METRIC_NAMES.map((m) => [m, Type.Optional(PriorInput)])), {
        additionalProperties: false,
        description: 'Per-metric normal priors of the Bayesian view {mean, stdDev, scale}; metrics without one use bayesianPrior.',
      }),
    ),
    capping: Type.Optional(
      Type.Object(Object.fromEntries(METRIC_NAMES.map((m) => [m, Type.Optional(CapInput)])), {
        additionalProperties: false,
        description: 'Per-metric capping {metric: {type: "percentile", value} | {type: "absolute", value}}; ?capping=off reads uncapped.',
      }),
    ),
    dimensions: Type.Optional(
      Type.Array(Type.String({ pattern: SLICE_DIMENSION_PATTERN }), {
        maxItems: 8,
        uniqueItems: true,
        description:
          'Slice dimensions whose sums attribution maintains (GET …/results?dimension=): deviceType, searchType, language, category (a session’s value is the one on its first attributed feedback item) or an assign attribute as "attr:<name>" (letters, digits, _ . -, up to 27 characters; the value the unit’s first exposure sent, "(unset)" when absent, null or an array). Default ["deviceType", "searchType"]; changes apply from the next phase.',
      }),
    ),
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
      Type.Array(StringEnum(ANALYSIS_METRIC_NAMES), {
        minItems: 1,
        maxItems: EXPERIMENT_LIMITS.maxTargetMetrics,
        description: `Names from the metric catalogue: ${ANALYSIS_METRIC_NAMES.join(', ')} (the _p50/_p90 ones are per-item quantiles). Default ["ctr"].`,
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
    type: Type.Optional(
      StringEnum(['ab', 'interleaving'] as const, {
        description: 'ab (default): each unit sees one variant; interleaving: each participating unit sees the rankers interleaved.',
      }),
    ),
    interleaving: Type.Optional(InterleavingInput),
    promote: Type.Optional(PromoteInput),
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

export const ExperimentIdParams = Type.Object({ experimentId: Type.String({ minLength: 1, maxLength: 64 }) });

export const ExperimentListQuery = PageQuery({ status: Type.Optional(StringEnum(EXPERIMENT_STATES)) }, { max: 200, default: 50 });
export type ExperimentListQuery = Static<typeof ExperimentListQuery>;
