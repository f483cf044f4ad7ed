import { ValidationError } from '../../common/errors.js';
import { RANK_MAX_FEATURES } from './rank.schemas.js';

/**
 * The check of rank's feature maps that Ajv leaves to the handler (CHECKED_IN_HANDLER in
 * rank.schemas.ts): at most RANK_MAX_FEATURES names per result, each value a finite number. One
 * plain loop over what the request must carry anyway; the first fault is a 400 naming
 * `/results/<i>/features/<name>` (or `/results/<i>/features` for too many), as Ajv's would.
 */
export function checkFeatures(results: readonly { features?: Record<string, unknown> }[]): void {
  for (let i = 0; i < results.length; i += 1) {
    const features = results[i]!.features;
    if (features === undefined) continue;
    // Object.values is a quarter of a for…in's cost over 40 names; the names are read only to report a fault.
    const values = Object.values(features);
    if (values.length > RANK_MAX_FEATURES)
      throw ValidationError.field(`/results/${i}/features`, `must NOT have more than ${RANK_MAX_FEATURES} properties`);
    for (let k = 0; k < values.length; k += 1) {
      const value = values[k];
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fault(i, features);
    }
  }
}

/** The first faulty feature's 400 (own enumerable keys in Object.values' order: a parsed object's are its own). */
function fault(i: number, features: Record<string, unknown>): ValidationError {
  for (const [name, value] of Object.entries(features)) {
    if (typeof value !== 'number') return ValidationError.field(featurePath(i, name), 'must be number');
    if (!Number.isFinite(value)) return ValidationError.field(featurePath(i, name), 'must be a finite number');
  }
  return ValidationError.field(`/results/${i}/features`, 'is invalid');
}

/** A JSON pointer, as Ajv writes it: `~` and `/` in a name escaped. */
const featurePath = (i: number, name: string) => `/results/${i}/features/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
