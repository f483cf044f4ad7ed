import { Type, type TSchema } from 'typebox';
import { ERROR_STATUS } from '../common/errors.js';

/** `{success: true, data}`: the shape of every successful response. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Literal(true), data });
}

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.Union(Object.keys(ERROR_STATUS).map((code) => Type.Literal(code))),
      message: Type.String(),
      details: Type.Array(
        Type.Object({
          path: Type.String(),
          message: Type.String(),
          in: Type.Optional(Type.String()),
        }),
      ),
      requestId: Type.String(),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every failure, with the HTTP status matching error.code.' },
);

export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

/** Response schemas for the errors a route can answer with, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const status of statuses) out[status] = Type.Ref('ErrorEnvelope');
  return out;
}
