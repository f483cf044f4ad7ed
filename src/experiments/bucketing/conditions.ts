/**
 * Targeting conditions: a documented subset of GrowthBook's (MongoDB-like)
 * condition syntax, evaluated exactly as GrowthBook's `evalCondition` would,
 * quirks included (see README.md, "Condition language"). Only conditions that
 * passed `validateCondition` are meaningful here; anything else fails closed.
 */

/** Attribute values are flat scalars; nested objects and arrays are not part of the subset. */
export type AttributeValue = string | number | boolean | null;
export type Attributes = Readonly<Record<string, AttributeValue | undefined>>;

export type ComparisonOperator = '$gt' | '$gte' | '$lt' | '$lte';
export type SetOperator = '$in' | '$nin';

export type OperatorCondition = {
  readonly [op in ComparisonOperator]?: number;
} & {
  readonly [op in SetOperator]?: readonly string[];
};

export type AttributeCondition = string | number | boolean | OperatorCondition;

/**
 * `{ country: 'NL', age: { $gte: 18 }, $or: [...], $and: [...], $not: {...} }`.
 * Keys that start with `$` are logical operators; every other key is an
 * attribute name. All entries must hold (implicit AND).
 */
export interface Condition {
  readonly $and?: readonly Condition[];
  readonly $or?: readonly Condition[];
  readonly $not?: Condition;
  readonly [attribute: string]: AttributeCondition | Condition | readonly Condition[] | undefined;
}

export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = ['$gt', '$gte', '$lt', '$lte'];
export const SET_OPERATORS: readonly SetOperator[] = ['$in', '$nin'];
export const LOGICAL_OPERATORS = ['$and', '$or', '$not'] as const;

const hasOwn = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

/**
 * GrowthBook reads attributes with `key in obj`, which also sees inherited
 * members; reading own properties only is equivalent because the validator
 * rejects every `Object.prototype` member name as an attribute name.
 * A missing attribute reads as null, as in GrowthBook.
 */
function readAttribute(attributes: Attributes, name: string): AttributeValue | undefined {
  return hasOwn(attributes, name) ? attributes[name] : null;
}

export function evaluateCondition(condition: Condition, attributes: Attributes): boolean {
  for (const key of Object.keys(condition)) {
    const value = condition[key];
    if (key === '$and') {
      if (!Array.isArray(value) || !value.every((c: Condition) => evaluateCondition(c, attributes))) return false;
    } else if (key === '$or') {
      if (!Array.isArray(value)) return false;
      // An empty $or passes, as in GrowthBook.
      if (value.length > 0 && !value.some((c: Condition) => evaluateCondition(c, attributes))) return false;
    } else if (key === '$not') {
      if (!isPlainObject(value) || evaluateCondition(value as Condition, attributes)) return false;
    } else if (key.startsWith('$')) {
      return false;
    } else if (!evaluateAttribute(value as AttributeCondition, readAttribute(attributes, key))) {
      return false;
    }
  }
  return true;
}

function evaluateAttribute(expected: AttributeCondition | undefined, actual: AttributeValue | undefined): boolean {
  // The three literal comparisons reproduce GrowthBook's coercions on purpose:
  // `actual + ""`, `actual * 1` and `!!actual` (e.g. a missing attribute equals "null" and 0).
  if (typeof expected === 'string') return String(actual) === expected;
  if (typeof expected === 'number') return Number(actual) === expected;
  if (typeof expected === 'boolean') return actual !== null && Boolean(actual) === expected;
  if (!isPlainObject(expected)) return false;
  const ops = Object.keys(expected);
  if (ops.length === 0) return false;
  return ops.every((op) => evaluateOperator(op, actual, (expected as Record<string, unknown>)[op]));
}

function evaluateOperator(op: string, actual: AttributeValue | undefined, operand: unknown): boolean {
  switch (op) {
    case '$in':
      return Array.isArray(operand) && operand.includes(actual);
    case '$nin':
      return Array.isArray(operand) && !operand.includes(actual);
    // JavaScript relational comparison on purpose (null < 1, "20" > 5), as in GrowthBook.
    case '$gt':
      return (actual as number) > (operand as number);
    case '$gte':
      return (actual as number) >= (operand as number);
    case '$lt':
      return (actual as number) < (operand as number);
    case '$lte':
      return (actual as number) <= (operand as number);
    default:
      return false;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
