import { Type } from 'typebox';
import { StringEnum } from '../../http/string-enum.js';
import type { TSchema } from 'typebox';

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);
const ScaleName = StringEnum(['relative', 'absolute'] as const);

export const GuardrailResult = Type.Object({
  metric: Type.String(),
  direction: StringEnum(['higher', 'lower'] as const),
  margin: Type.Number(),
  scale: ScaleName,
  method: StringEnum(['fixed', 'sequential'] as const),
  alpha: Type.Number({ description: 'Level of each one-sided test.' }),
  autoPause: Type.Boolean(),
  comparisons: Type.Array(
    Type.Object({
      variantId: Type.String(),
      controlVariantId: Type.String(),
      status: Type.Union([StringEnum(['passed', 'breached', 'inconclusive'] as const), Type.Null()], {
        description:
          'passed: non-inferiority shown (the harmful-side bound is inside the margin); breached: the harm is confidently beyond the margin; inconclusive: neither; null: no test (see reason).',
      }),
      estimate: Nullable(Type.Number()),
      threshold: Type.Number({ description: 'The lift the margin corresponds to: −margin (higher is better) or +margin.' }),
      bounds: Type.Union([Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), Type.Null()], {
        description: 'One-sided (1 − α) lower and upper confidence bounds of the lift.',
      }),
      nonInferiorityPValue: Nullable(Type.Number()),
      breachPValue: Nullable(Type.Number()),
      reason: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

/** The slices section; built with the results' comparison schema (kept in results.schemas.ts). */
export const slicesResult = <C extends TSchema>(Comparison: C) =>
  Type.Union(
    [
      Type.Object({
        dimension: Type.String(),
        exploratory: Type.Literal(true),
        note: Type.String(),
        unitsWithoutValue: Type.Record(Type.String(), Type.Integer(), {
          description: 'Exposed units whose session has no attributed feedback yet (no slice value).',
        }),
        values: Type.Array(
          Type.Object({
            value: Type.String({
              description: 'The slice value; "(other)" merges the values beyond the top 20 by units; "(unset)" = the item did not say.',
            }),
            units: Type.Integer(),
            srm: Type.Object({
              pValue: Nullable(Type.Number()),
              passed: Type.Boolean(),
              note: Type.Union([Type.String(), Type.Null()]),
              observed: Type.Record(Type.String(), Type.Number()),
            }),
            metrics: Type.Array(
              Type.Object({
                metric: Type.String(),
                direction: Type.String(),
                variants: Type.Array(Type.Object({ variantId: Type.String(), units: Type.Integer(), value: Nullable(Type.Number()) })),
                comparisons: Type.Array(Comparison),
              }),
            ),
          }),
        ),
      }),
      Type.Null(),
    ],
    { description: 'With ?dimension=: the same analysis per slice value (exploratory, corrected across slices); null otherwise.' },
  );
