import { Type, type Static } from 'typebox';
import { Page } from '../../../http/page.js';
import { StringEnum } from '../../../http/string-enum.js';
import { EXPERIMENT_STATES, MANUAL_LIFECYCLE_ACTIONS } from '../lifecycle.js';
import { CapInput, GuardrailInput, PriorInput } from './experiment.schemas.js';

/** The experiment as the API answers with it (request schemas: experiment.schemas.ts). */
export const VariantView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  weight: Type.Number(),
  config: Type.Record(Type.String(), Type.Unknown()),
  model: Type.Optional(
    Type.Object({
      modelId: Type.String(),
      version: Type.Optional(Type.Integer()),
      pinnedVersion: Type.Optional(Type.Integer({ description: 'The version this phase serves, fixed when it started.' })),
    }),
  ),
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
      scale: Type.String(),
      method: Type.String(),
      alpha: Type.Number(),
      correction: Type.String(),
      sequentialTuning: Type.Number(),
      mde: Type.Number(),
      bayesianPrior: Type.String(),
      cuped: Type.Boolean(),
      guardrails: Type.Array(GuardrailInput),
      dimensions: Type.Array(Type.String()),
      priors: Type.Optional(Type.Record(Type.String(), PriorInput)),
      capping: Type.Optional(Type.Record(Type.String(), CapInput)),
    }),
    type: Type.Optional(StringEnum(['ab', 'interleaving'] as const)),
    interleaving: Type.Optional(Type.Object({ method: Type.String(), depth: Type.Integer() })),
    promote: Type.Optional(Type.Object({ alias: Type.String() })),
  }),
  phase: Type.Integer({ description: 'Current phase; a new phase re-randomizes with a new seed.' }),
  conclusion: Type.Union([
    Type.Object({
      decision: Type.String(),
      winnerVariantId: Type.Union([Type.String(), Type.Null()]),
      notes: Type.Union([Type.String(), Type.Null()]),
      concludedAt: Type.String({ format: 'date-time' }),
      forced: Type.Optional(Type.Boolean({ description: 'Shipped over a failed SRM (or team-balance) check.' })),
      promotion: Type.Optional(
        Type.Object(
          {
            alias: Type.String(),
            modelId: Type.String(),
            version: Type.Integer(),
            from: Type.Union([Type.Object({ modelId: Type.String(), version: Type.Union([Type.Integer(), Type.Null()]) }), Type.Null()]),
          },
          { description: 'The alias move made with the conclusion; move the alias back to roll back.' },
        ),
      ),
      summary: Type.String({
        description:
          'What serves searches afterwards, in one sentence: the alias move, or that no alias moved and what keeps serving (a ship without a promotion target moves nothing).',
      }),
    }),
    Type.Null(),
  ]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type ExperimentSnapshot = Static<typeof ExperimentSnapshot>;

export const ExperimentView = Type.Object({
  ...ExperimentSnapshot.properties,
  allowedActions: Type.Array(StringEnum(MANUAL_LIFECYCLE_ACTIONS), {
    description:
      'Lifecycle moves that would succeed now (POST …/{action}), given the status and dates; any other is a 409. conclude may still be refused while the sample-ratio check fails, unless forced.',
  }),
});
export type ExperimentView = Static<typeof ExperimentView>;

export const ExperimentPage = Page(ExperimentView);
