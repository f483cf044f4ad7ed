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
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(new ValidationError('body must not be empty when Content-Type is application/json'), undefined);
      return;
    }
    if (jsonDepth(text, maxDepth) > maxDepth) {
      done(
        new ValidationError(`body nests deeper than ${maxDepth} levels`, [
          { path: '/', message: `nests deeper than ${maxDepth} levels`, in: 'body' },
        ]),
        undefined,
      );
      return;
    }
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      done(new ValidationError(`body is not valid JSON: ${message}`, [{ path: '/', message, in: 'body' }]), undefined);
    }
  });
}
