import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/string-enum.js';
import { GuardrailResult, slicesResult } from './guardrail-slice-results.schemas.js';
import { InterleavingResultsView } from '../model/schemas/interleaving-results.schemas.js';

export const ResultsQuery = Type.Object(
  {
    scale: Type.Optional(
      StringEnum(['relative', 'absolute'] as const, { description: "Overrides the experiment's analysis.scale for this read." }),
    ),
    method: Type.Optional(
      StringEnum(['fixed', 'sequential'] as const, { description: "Overrides the experiment's analysis.method for this read." }),
    ),
    alpha: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 0.5 })),
    correction: Type.Optional(StringEnum(['holm', 'benjamini-hochberg', 'none'] as const)),
    phase: Type.Optional(Type.Integer({ minimum: 0, description: 'Default: the current phase.' })),
    capping: Type.Optional(
      StringEnum(['on', 'off'] as const, { description: 'off: the uncapped result of metrics with analysis.capping. Default on.' }),
    ),
    dimension: Type.Optional(
      Type.String({
        maxLength: 32,
        description:
          'Also analyse each slice value of this dimension (one of the phase’s analysis.dimensions: deviceType, searchType, language, category or attr:<assign attribute>): exploratory. Undeclared: 400 on /dimension.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ResultsQuery = Static<typeof ResultsQuery>;

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);
/** Below this many exposure days the results also carry an hourly series (one or two daily points draw no curve). */
export const HOURLY_SERIES_BELOW_DAYS = 3;

const Interval = Type.Union([Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), Type.Null()]);

const ScaleName = StringEnum(['relative', 'absolute'] as const);

export const Comparison = Type.Object({
  variantId: Type.String(),
  controlVariantId: Type.String(),
  scale: ScaleName,
  test: Type.Union([Type.String(), Type.Null()], {
    description: 'welch-t, normal, score (Miettinen–Nurminen, proportions of sessions) or confidence-sequence; null without a test.',
  }),
  estimate: Nullable(Type.Number({ description: 'The lift on `scale`: (B − A)/|A| or B − A.' })),
  interval: Type.Union([Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), Type.Null()], {
    description: 'Interval of `estimate` at alpha from the same procedure as pValue: excludes 0 exactly when pValue < alpha.',
  }),
  adjustedInterval: Type.Union([Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), Type.Null()], {
    description: 'Interval of `estimate` at the level α·p/p̃ that agrees with adjustedPValue: excludes 0 exactly when significant.',
  }),
  otherScale: Type.Object(
    { scale: ScaleName, estimate: Nullable(Type.Number()), reason: Type.Union([Type.String(), Type.Null()]) },
    { description: "The other scale's point estimate, for context only: no interval, no verdict." },
  ),
  absoluteLift: Nullable(Type.Number({ description: 'Point estimate B − A (whatever the scale).' })),
  relativeLift: Nullable(Type.Number({ description: 'Point estimate (B − A)/|A| (whatever the scale).' })),
  ci: Type.Union([Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), Type.Null()], {
    description: 'Legacy: = interval when scale is absolute, else null.',
  }),
  relativeCi: Type.Union([Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), Type.Null()], {
    description: 'Legacy: = interval when scale is relative, else null.',
  }),
  pValue: Nullable(Type.Number({ description: 'Two-sided p-value of no difference on `scale`.' })),
  adjustedPValue: Nullable(Type.Number()),
  significant: Type.Boolean({ description: 'adjustedPValue < alpha' }),
  improved: Type.Union([Type.Boolean(), Type.Null()], { description: 'significant and in the better direction' }),
  chanceToBeatControl: Nullable(Type.Number({ description: 'Posterior probability of a better lift, on `scale`.' })),
  risk: Type.Union([Type.Object({ control: Type.Number(), variant: Type.Number() }), Type.Null()]),
  cuped: Type.Union([
    Type.Object({ theta: Nullable(Type.Number()), varianceReduction: Nullable(Type.Number()), unitsWithCovariate: Type.Integer() }),
    Type.Null(),
  ]),
  power: Nullable(
    Type.Number({
      description:
        'Power reached so far against a true relative effect of analysis.mde, planned as analysed: this scale and method, the correction over target metrics × treatments (Bonferroni bound α/m), CUPED’s variance reduction.',
    }),
  ),
  unitsStillNeeded: Type.Union(
    [Type.Object({ additionalUnits: Type.Number(), requiredControl: Type.Number(), requiredVariant: Type.Number() }), Type.Null()],
    {
      description:
        'Units this comparison still needs (both arms, current split) to reach 80 % power at analysis.mde, as `power` is planned.',
    },
  ),
  reason: Type.Union([Type.String(), Type.Null()], {
    description:
      'Why a field is null (EMPTY_ARM, TOO_FEW_UNITS, ZERO_DENOMINATOR, ZERO_VARIANCE, ZERO_CONTROL_MEAN, CONTROL_MEAN_NEAR_ZERO, INVALID_INPUT).',
  }),
});

export const MetricResult = Type.Object({
  metric: Type.String(),
  direction: Type.String(),
  variants: Type.Array(
    Type.Object({
      variantId: Type.String(),
      units: Type.Integer({ description: 'Exposed units (quantile metrics: units with at least one item carrying the value).' }),
      numerator: Type.Union([Type.Number(), Type.Null()], { description: 'Σ X over units; null for quantile metrics.' }),
      denominator: Type.Union([Type.Number(), Type.Null()], { description: 'Σ Y over units; null for quantile metrics.' }),
      value: Nullable(Type.Number({ description: 'X/Y, or the per-item quantile (ms) for quantile metrics.' })),
      items: Type.Optional(Type.Integer({ description: 'Quantile metrics: items carrying the value.' })),
      standardError: Type.Optional(
        Type.Union([Type.Number(), Type.Null()], {
          description: 'Quantile metrics: cluster-robust standard error of the quantile (Woodruff half-width / 1.96).',
        }),
      ),
    }),
  ),
  quantile: Type.Optional(
    Type.Object(
      { q: Type.Number(), source: Type.String(), grid: Type.String() },
      {
        description:
          'Quantile metrics: the level, the item field (time_to_click, dwell_time, ms) and the fixed threshold grid the sums are kept on.',
      },
    ),
  ),
  comparisons: Type.Array(Comparison),
  capping: Type.Union(
    [
      Type.Object({
        type: Type.String(),
        value: Type.Number(),
        cap: Nullable(Type.Number({ description: 'The cap on the per-unit value, from the pooled per-unit values of all arms.' })),
        cappedUnits: Type.Record(Type.String(), Type.Integer()),
        reason: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ],
    {
      description:
        'analysis.capping of this metric as applied (variants and comparisons are capped; ?capping=off for uncapped); null if none.',
    },
  ),
});

export const ResultsView = Type.Object({
  experimentId: Type.String(),
  status: Type.String(),
  phase: Type.Integer(),
  computedAt: Type.String({ format: 'date-time' }),
  dataFreshAsOf: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Feedback received before this time is included.',
  }),
  scale: ScaleName,
  method: Type.String(),
  alpha: Type.Number(),
  correction: Type.String(),
  trustworthy: Type.Boolean({ description: 'False when the sample-ratio check failed.' }),
  srm: Type.Object({
    pValue: Nullable(Type.Number()),
    passed: Type.Boolean(),
    note: Type.Union([Type.String(), Type.Null()]),
    observed: Type.Record(Type.String(), Type.Number()),
    expected: Type.Record(Type.String(), Type.Number()),
  }),
  metrics: Type.Array(MetricResult),
  interleaving: Type.Optional(InterleavingResultsView),
  guardrails: Type.Array(GuardrailResult, {
    description:
      'analysis.guardrails: one-sided non-inferiority tests on each guardrail’s own scale, with this read’s method and alpha; not part of the target metrics’ correction.',
  }),
  slices: slicesResult(Comparison),
  series: Type.Array(
    Type.Object({
      metric: Type.String(),
      points: Type.Array(
        Type.Object({
          date: Type.String(),
          variantId: Type.String(),
          units: Type.Integer(),
          value: Nullable(Type.Number()),
          estimate: Nullable(
            Type.Number({ description: 'Lift on the read’s scale against control, up to that day; null for the control.' }),
          ),
          interval: Interval,
        }),
      ),
    }),
    {
      description:
        "Cumulative by exposure date: each day, the metric over the units exposed up to the end of that day (UTC), and each treatment's lift on the read's scale with its interval (the method's, unadjusted, without CUPED).",
    },
  ),
  hourlySeries: Type.Union(
    [
      Type.Array(
        Type.Object({
          metric: Type.String(),
          points: Type.Array(
            Type.Object({
              start: Type.String({ description: 'Start of the exposure hour (UTC, ISO 8601).' }),
              variantId: Type.String(),
              units: Type.Integer(),
              value: Nullable(Type.Number()),
              estimate: Nullable(
                Type.Number({ description: 'Lift on the read’s scale against control, up to the end of that hour; null for the control.' }),
              ),
              interval: Interval,
            }),
          ),
        }),
      ),
      Type.Null(),
    ],
    {
      description: `Cumulative by exposure hour, as \`series\` is by day, while the phase has fewer than ${HOURLY_SERIES_BELOW_DAYS} exposure days (a daily curve then has too few points to read); null from the third day on, and for interleaving. Ratio metrics only: quantile metrics are kept per day.`,
    },
  ),
  summary: Type.String(),
});
export type ResultsView = Static<typeof ResultsView>;
