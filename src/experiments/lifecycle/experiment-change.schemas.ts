import { Type, type Static } from 'typebox';
import { Page, PageQuery } from '../../http/page.js';
import { StringEnum } from '../../http/string-enum.js';
import { ANALYSIS_METRIC_NAMES } from '../../vocabulary/index.js';
import { EXPERIMENT_LIMITS } from '../model/experiment-rules.js';
import { AnalysisInput, LayerInput, PromoteInput, VariantInput } from '../model/schemas/experiment.schemas.js';

export const ConcludeBody = Type.Object(
  {
    decision: StringEnum(['ship', 'rollback', 'inconclusive'] as const),
    winnerVariantId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Served to every unit after concluding.' })),
    notes: Type.Optional(Type.String({ maxLength: 5000 })),
    promote: Type.Optional(
      Type.Object(PromoteInput.properties, {
        additionalProperties: false,
        description:
          'With decision "ship": the alias to move to the winner’s pinned version, named at conclusion (overrides configuration.promote; recorded in the audit log).',
      }),
    ),
    force: Type.Optional(
      Type.Boolean({ description: 'Ship even though the sample-ratio (or team-balance) check failed (the results are untrustworthy).' }),
    ),
  },
  { additionalProperties: false },
);
export type ConcludeBody = Static<typeof ConcludeBody>;

export const PatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 5000 }), Type.Null()])),
    startDate: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    endDate: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    configuration: Type.Optional(
      Type.Object(
        {
          variants: Type.Optional(Type.Array(VariantInput, { minItems: 2, maxItems: EXPERIMENT_LIMITS.maxVariants })),
          trafficAllocation: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
          targetMetrics: Type.Optional(
            Type.Array(StringEnum(ANALYSIS_METRIC_NAMES), { minItems: 1, maxItems: EXPERIMENT_LIMITS.maxTargetMetrics }),
          ),
          seed: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          layer: Type.Optional(Type.Union([LayerInput, Type.Null()])),
          conditions: Type.Optional(Type.Unknown()),
          controlVariantId: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])),
          analysis: Type.Optional(AnalysisInput),
          promote: Type.Optional(Type.Union([PromoteInput, Type.Null()])),
        },
        { additionalProperties: false },
      ),
    ),
    newPhase: Type.Optional(
      Type.Boolean({
        description:
          'Start a new phase: re-randomize with a new seed; the old phase keeps its data apart. Needed to lower traffic or change variants, seed, layer or conditions while running.',
      }),
    ),
  },
  { additionalProperties: false, description: 'Merges into the experiment; null clears a nullable field.' },
);
export type PatchBody = Static<typeof PatchBody>;

export const EventView = Type.Object({
  eventId: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.String(),
  action: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
});

export const EventsQuery = PageQuery({}, { max: 500, default: 100 });

export const EventPage = Page(EventView);
