import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/string-enum.js';

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

export const PowerBody = Type.Object(
  {
    metric: Type.String({ minLength: 1, maxLength: 64 }),
    baseline: Type.Optional(
      Type.Number({ description: 'Control value of the metric; derived from the last 14 days of feedback when absent.' }),
    ),
    stdDev: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        description: 'Per-session standard deviation; derived for proportions, from the experiment or recent feedback otherwise.',
      }),
    ),
    mde: Type.Number({ exclusiveMinimum: 0, maximum: 10, description: 'Minimum detectable effect, relative (0.05 = 5 %).' }),
    alpha: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 0.5, default: 0.05 })),
    power: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1, default: 0.8 })),
    variants: Type.Optional(Type.Integer({ minimum: 2, maximum: 20, default: 2 })),
    trafficAllocation: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 1 })),
    dailySessions: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: 'Derived from the last 14 days of feedback when absent.' }),
    ),
    experimentId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'Use this experiment’s observed control value and variance, and plan for its correction, method, alpha and target metrics.',
      }),
    ),
    correction: Type.Optional(
      StringEnum(['holm', 'benjamini-hochberg', 'bonferroni', 'none'] as const, {
        description: 'The correction the results will apply; default the experiment’s, else holm.',
      }),
    ),
    method: Type.Optional(StringEnum(['fixed', 'sequential'] as const, { description: 'Default the experiment’s, else fixed.' })),
    targetMetrics: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 20,
        description: 'Target metrics in the correction’s family; default the experiment’s, else 1.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PowerBody = Static<typeof PowerBody>;

export const PowerView = Type.Object({
  metric: Type.String(),
  baseline: Type.Number(),
  stdDev: Type.Number(),
  mde: Type.Number(),
  absoluteEffect: Nullable(Type.Number()),
  alpha: Type.Number(),
  power: Type.Number(),
  variants: Type.Integer(),
  trafficAllocation: Type.Number(),
  dailySessions: Nullable(Type.Number()),
  correction: Type.String(),
  method: Type.String(),
  comparisons: Type.Integer({ description: 'Target metrics × treatment variants: the correction’s family.' }),
  plannedAlpha: Type.Number({ description: 'The per-comparison level the plan uses (α/m).' }),
  bound: Type.String({ description: 'Which bound the plan is.' }),
  sessionsPerVariant: Nullable(Type.Number()),
  totalSessions: Nullable(Type.Number()),
  days: Nullable(Type.Number()),
  sources: Type.Record(Type.String(), Type.String(), {
    description: 'Where each input came from: request, experiment, recent_feedback or derived.',
  }),
});
