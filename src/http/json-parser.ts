import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { ValidationError } from '../common/errors.js';

/** Deepest nesting in a JSON text, found by a linear scan that skips strings (no recursion). */
export function jsonDepth(text: string, stopAbove: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i += 1; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth += 1;
      if (depth > max) max = depth;
      if (max > stopAbove) return max;
    } else if (c === 125 || c === 93) depth -= 1;
  }
  return max;
}

/**
 * The JSON body parser: refuses nesting deeper than `maxDepth` before parsing (a deep document
 * cannot exhaust the stack), and parses with secure-json-parse, which rejects __proto__ and
 * constructor.prototype keys.
 */
export function registerJsonParser(app: FastifyInstance, maxDepth: number): void {
  registerParser(app, (text) => {
    if (jsonDepth(text, maxDepth) > maxDepth) {
      throw new ValidationError(`body nests deeper than ${maxDepth} levels`, [
        { path: '/', message: `nests deeper than ${maxDepth} levels`, in: 'body' },
      ]);
    }
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) as unknown;
  });
}

/**
 * The JSON parser of a route whose body schema bounds what its handler reads (POST /api/nous/rank:
 * 60 KB bodies, one per search, where the general parser's two extra passes over the text cost more
 * than they protect). It is registered in that route's own plugin context and skips both:
 *
 * - The depth walk. V8's JSON.parse is iterative (its own stack, not the call stack), so deep nesting
 *   cannot exhaust the stack while parsing; the limit protects code that walks a free-form value
 *   recursively afterwards. Rank's schema makes every part it reads flat (results, features and
 *   attributes hold scalars or arrays of scalars, checked before the handler runs) and its handler
 *   only reads named fields of `context`; nothing walks, copies or serializes a free-form value.
 * - The __proto__ / constructor scan. JSON.parse stores a "__proto__" key as an own data property
 *   (CreateDataProperty): it changes no prototype. It becomes harmful only when a value holding it is
 *   merged with [[Set]] semantics (Object.assign, a `target[key] = value` copy loop), and rank's
 *   handler merges no request object: unknown top-level and result fields are 400s, feature values
 *   must be numbers, attribute values scalars; `context` is read, never merged.
 *   test/experiments/rank-body.test.ts sends such keys and checks Object.prototype stays clean.
 */
export function registerSchemaBoundJsonParser(app: FastifyInstance): void {
  registerParser(app, (text) => JSON.parse(text) as unknown);
}

/** Both parsers' shell: an empty body and a syntax error are 400s in the envelope; `parse` may throw a ValidationError of its own. */
function registerParser(app: FastifyInstance, parse: (text: string) => unknown): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(new ValidationError('body must not be empty when Content-Type is application/json'), undefined);
      return;
    }
    let value: unknown;
    try {
      value = parse(text);
    } catch (error) {
      if (error instanceof ValidationError) {
        done(error, undefined);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      done(new ValidationError(`body is not valid JSON: ${message}`, [{ path: '/', message, in: 'body' }]), undefined);
      return;
    }
    done(null, value);
  });
}
