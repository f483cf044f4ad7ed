import { COMPARISON_OPERATORS, LOGICAL_OPERATORS, SET_OPERATORS, isPlainObject, type Condition } from './conditions.js';

/** Same shape as the `details` entries of the HTTP error envelope. */
export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) to the offending value. */
  readonly path: string;
  readonly message: string;
}

export type ConditionValidation =
  { readonly ok: true; readonly condition: Condition } | { readonly ok: false; readonly errors: readonly ValidationIssue[] };

/** Deep enough for any hand-written targeting rule, shallow enough to rule out stack exhaustion. */
export const MAX_CONDITION_DEPTH = 16;
const MAX_ISSUES = 50;

/**
 * GrowthBook looks attributes up with `in`, which sees inherited members, and
 * `__proto__`/`constructor` are the classic prototype-pollution keys: all are
 * refused as attribute names so that such a key can never reach a prototype
 * and so that evaluation agrees with GrowthBook's.
 */
const RESERVED_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

const ATTRIBUTE_OPERATORS: ReadonlySet<string> = new Set<string>([...COMPARISON_OPERATORS, ...SET_OPERATORS]);
const LOGICAL: ReadonlySet<string> = new Set<string>(LOGICAL_OPERATORS);

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Checks that `input` (typically parsed JSON) belongs to the condition
 * language of README.md and reports every problem with its path, prefixed by
 * `basePath` (e.g. `/conditions`), so the service can answer 400 with details.
 * The validator is stricter than GrowthBook (it refuses empty `$in`, `$or`,
 * null literals, nested objects...) so that every accepted condition has one
 * obvious meaning that both evaluators share.
 */
export function validateCondition(input: unknown, basePath = ''): ConditionValidation {
  const issues: ValidationIssue[] = [];
  const report = (path: string, message: string): void => {
    if (issues.length < MAX_ISSUES) issues.push({ path, message });
  };
  checkCondition(input, basePath, 1, report);
  return issues.length === 0 ? { ok: true, condition: input as Condition } : { ok: false, errors: issues };
}

type Report = (path: string, message: string) => void;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function checkCondition(input: unknown, path: string, depth: number, report: Report): void {
  if (!isPlainObject(input)) {
    report(path, `a condition must be an object, got ${describe(input)}`);
    return;
  }
  if (depth > MAX_CONDITION_DEPTH) {
    report(path, `conditions may nest at most ${MAX_CONDITION_DEPTH} levels deep`);
    return;
  }
  for (const key of Object.keys(input)) {
    const childPath = `${path}/${escapePointerToken(key)}`;
    const value = input[key];
    if (key.startsWith('$')) {
      if (!LOGICAL.has(key)) {
        const hint = ATTRIBUTE_OPERATORS.has(key) ? ` (${key} applies to an attribute: {"attr": {"${key}": ...}})` : '';
        report(childPath, `unknown operator "${key}"; expected one of ${LOGICAL_OPERATORS.join(', ')}${hint}`);
      } else if (key === '$not') {
        checkCondition(value, childPath, depth + 1, report);
      } else if (!Array.isArray(value) || value.length === 0) {
        report(
          childPath,
          `${key} must be a non-empty array of conditions, got ${Array.isArray(value) ? 'an empty array' : describe(value)}`,
        );
      } else {
        value.forEach((item, i) => checkCondition(item, `${childPath}/${i}`, depth + 1, report));
      }
    } else {
      // A refused name is one error; its value is not inspected further.
      if (checkAttributeName(key, childPath, report)) checkAttributeCondition(value, childPath, report);
    }
  }
}

function checkAttributeName(name: string, path: string, report: Report): boolean {
  if (name.length === 0) report(path, 'attribute name must not be empty');
  else if (RESERVED_NAMES.has(name)) report(path, `"${name}" is a reserved name and cannot be used as an attribute`);
  // GrowthBook would read a dotted name as a nested path; nested attributes are outside the subset.
  else if (name.includes('.')) report(path, `attribute name "${name}" must not contain "."`);
  else return true;
  return false;
}

function checkAttributeCondition(value: unknown, path: string, report: Report): void {
  if (typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) report(path, 'number must be finite');
    return;
  }
  if (!isPlainObject(value)) {
    report(path, `expected a string, number, boolean or operator object, got ${describe(value)}`);
    return;
  }
  const ops = Object.keys(value);
  if (ops.length === 0) report(path, 'operator object must contain at least one operator');
  for (const op of ops) {
    const opPath = `${path}/${escapePointerToken(op)}`;
    const operand = value[op];
    if (!ATTRIBUTE_OPERATORS.has(op)) {
      const expected = [...ATTRIBUTE_OPERATORS].join(', ');
      report(
        opPath,
        op.startsWith('$')
          ? `unknown operator "${op}"; expected one of ${expected}`
          : `expected an operator (${expected}), got "${op}"; nested attributes are not supported`,
      );
    } else if ((SET_OPERATORS as readonly string[]).includes(op)) {
      if (!Array.isArray(operand) || operand.length === 0) {
        report(opPath, `${op} must be a non-empty array of strings, got ${Array.isArray(operand) ? 'an empty array' : describe(operand)}`);
      } else {
        operand.forEach((item: unknown, i) => {
          if (typeof item !== 'string') report(`${opPath}/${i}`, `${op} values must be strings, got ${describe(item)}`);
        });
      }
    } else if (typeof operand !== 'number' || !Number.isFinite(operand)) {
      report(opPath, `${op} must be a finite number, got ${typeof operand === 'number' ? String(operand) : describe(operand)}`);
    }
  }
}
