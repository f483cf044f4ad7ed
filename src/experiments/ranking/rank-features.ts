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
    let count = 0;
    // for…in: own enumerable keys of a parsed JSON object (its prototype is Object.prototype, which has none).
    for (const name in features) {
      const value = features[name];
      if (typeof value !== 'number') throw ValidationError.field(featurePath(i, name), 'must be number');
      if (!Number.isFinite(value)) throw ValidationError.field(featurePath(i, name), 'must be a finite number');
      count += 1;
    }
    if (count > RANK_MAX_FEATURES)
      throw ValidationError.field(`/results/${i}/features`, `must NOT have more than ${RANK_MAX_FEATURES} properties`);
  }
}

/** A JSON pointer, as Ajv writes it: `~` and `/` in a name escaped. */
const featurePath = (i: number, name: string) => `/results/${i}/features/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
