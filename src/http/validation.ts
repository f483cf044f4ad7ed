import Ajv, { type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

const NO_NUL = 'x-no-nul';
const FINITE = 'x-finite';
/**
 * Marks a request schema's part that its handler checks itself, at less cost than Ajv's generic
 * code (rank's feature maps: 100 results × 40 features is 4 000 keyword calls per request). Ajv then
 * checks only that it is an object; the full schema stays in the OpenAPI document, and the handler
 * answers a 400 naming the same paths (test/fuzz holds both to the same envelopes).
 */
export const CHECKED_IN_HANDLER = 'x-checked-in-handler';

/** The keyword's check; Ajv reads a failure's errors from the function itself. */
const noNul = Object.assign(
  (_enabled: boolean, data: string): boolean => {
    if (!data.includes('\u0000')) return true;
    noNul.errors = [{ keyword: NO_NUL, message: 'must not contain the NUL character (U+0000)', params: {} }];
    return false;
  },
  { errors: null as unknown },
);

/** JSON.parse reads 1e999 as Infinity, which `type: number` accepts. */
const finite = Object.assign(
  (_enabled: boolean, data: number): boolean => {
    if (Number.isFinite(data)) return true;
    finite.errors = [{ keyword: FINITE, message: 'must be a finite number', params: {} }];
    return false;
  },
  { errors: null as unknown },
);

function createAjv(coerceTypes: Options['coerceTypes']) {
  // removeAdditional: false so an unknown field is a 400 that names it, never silently dropped.
  const ajv = new Ajv.default({ allErrors: false, removeAdditional: false, useDefaults: true, coerceTypes, strict: false });
  addFormats.default(ajv);
  ajv.addKeyword({ keyword: NO_NUL, type: 'string', schemaType: 'boolean', errors: true, validate: noNul as never });
  ajv.addKeyword({ keyword: FINITE, type: 'number', schemaType: 'boolean', errors: true, validate: finite as never });
  return ajv;
}

/**
 * PostgreSQL text cannot hold U+0000, so a typed string field containing it would be a 500 on
 * one database and stored on the other: every `type: string` of a request schema refuses it
 * (free-form JSON values are stored serialized, where it is escaped, and stay allowed). Every
 * `type: number | integer` refuses a non-finite value (a body's 1e999).
 */
function hardened(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(hardened);
  if (schema === null || typeof schema !== 'object') return schema;
  if ((schema as Record<string, unknown>)[CHECKED_IN_HANDLER] === true) return { type: 'object' };
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema))
    copy[key] = key === 'enum' || key === 'const' || key === 'default' ? value : hardened(value);
  const type = copy.type;
  const has = (t: string) => type === t || (Array.isArray(type) && type.includes(t));
  if (has('string')) copy[NO_NUL] = true;
  if (has('number') || has('integer')) copy[FINITE] = true;
  return copy;
}

/**
 * Bodies are validated as sent (a rating of "5" is an error, not a 5); query strings,
 * path parameters and headers arrive as text and are coerced to the schema's types.
 */
export function registerValidation(app: FastifyInstance): void {
  const strict = createAjv(false);
  const coercing = createAjv('array');
  app.setValidatorCompiler(({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }) =>
    compiledOnFirstUse(() => (httpPart === 'body' ? strict : coercing).compile(hardened(schema) as object)),
  );
}

/**
 * A route's validator, compiled by Ajv when its first request comes rather than when the app
 * starts: compiling every route's schemas was a third of the start-up's CPU (`npm start`), and most
 * routes see no request in a given run. Ajv's schemas are static, and the contract and fuzz tests
 * send every route a request, so a schema Ajv refuses still fails the tests, not only the first caller.
 */
function compiledOnFirstUse(compile: () => ValidateFunction) {
  let validate: ValidateFunction | undefined;
  const check = Object.assign(
    (data: unknown, context?: Parameters<ValidateFunction>[1]) => {
      validate ??= compile();
      const valid = validate(data, context);
      check.errors = validate.errors;
      return valid;
    },
    // Fastify hands Ajv functions (they have a schemaEnv) the parent of the value, so coercion can replace a root value.
    { errors: null as ValidateFunction['errors'], schemaEnv: {} },
  );
  return check;
}
