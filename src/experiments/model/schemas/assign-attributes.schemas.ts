import { Type } from 'typebox';

const AttributeValue = Type.Union([
  Type.String({ maxLength: 256 }),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
  Type.Array(Type.Union([Type.String({ maxLength: 256 }), Type.Number()]), { maxItems: 50 }),
]);

export const AssignAttributes = Type.Object(
  {
    covariates: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.Number({ minimum: -1e12, maximum: 1e12 }), {
        maxProperties: 20,
        description: 'Pre-exposure values per metric name (for CUPED variance reduction), kept from the first exposure.',
      }),
    ),
  },
  {
    additionalProperties: AttributeValue,
    maxProperties: 50,
    description: 'Targeting attributes (strings, numbers, booleans, null, or arrays of strings/numbers), at most 50.',
  },
);
