import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

function createAjv(coerceTypes: Options['coerceTypes']) {
  // removeAdditional: false so an unknown field is a 400 that names it, never silently dropped.
  const ajv = new Ajv.default({ allErrors: false, removeAdditional: false, useDefaults: true, coerceTypes, strict: false });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Bodies are validated as sent (a rating of "5" is an error, not a 5); query strings,
 * path parameters and headers arrive as text and are coerced to the schema's types.
 */
export function registerValidation(app: FastifyInstance): void {
  const strict = createAjv(false);
  const coercing = createAjv('array');
  app.setValidatorCompiler(({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as object),
  );
}
