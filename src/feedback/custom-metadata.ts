import type { ErrorDetail } from '../common/errors.js';
import { FEEDBACK_LIMITS } from './feedback-limits.js';

/** customMetadata fields that have their own columns; everything else is client metadata. */
export const KNOWN_CUSTOM_FIELDS = new Set([
  'searchType',
  'position',
  'timeToClick',
  'deviceType',
  'viewport',
  'scrollDepth',
  'dwellTime',
  'category',
  'language',
]);

// A key like these could reach an object's prototype when a consumer merges the metadata.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function checkValue(value: unknown, path: string, depth: number, problems: ErrorDetail[]): void {
  if (depth > FEEDBACK_LIMITS.maxExtraDepth) {
    problems.push({ path, message: `is nested deeper than ${FEEDBACK_LIMITS.maxExtraDepth} levels`, in: 'body' });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    if (FORBIDDEN_KEYS.has(key)) {
      problems.push({ path: `${path}/${key}`, message: 'is a reserved key name', in: 'body' });
      continue;
    }
    checkValue(child, `${path}/${key}`, depth + 1, problems);
  }
}

/**
 * Splits a customMetadata object into the client's extra keys (as JSON text, or null) and
 * reports every bound it crosses: key count, serialized size, depth and reserved names.
 */
export function extractExtraMetadata(custom: Record<string, unknown> | undefined, path: string, problems: ErrorDetail[]): string | null {
  if (!custom) return null;
  const extra: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let count = 0;
  let features: Record<string, number> | undefined;
  for (const key of Object.keys(custom)) {
    if (KNOWN_CUSTOM_FIELDS.has(key)) continue;
    if (key === 'features') {
      // Ranker features ({name: number}) have their own bound, outside the 32-key / 4 KiB budget.
      features = checkFeatures(custom[key], `${path}/features`, problems);
      continue;
    }
    if (FORBIDDEN_KEYS.has(key)) {
      problems.push({ path: `${path}/${key}`, message: 'is a reserved key name', in: 'body' });
      continue;
    }
    count += 1;
    checkValue(custom[key], `${path}/${key}`, 1, problems);
    extra[key] = custom[key];
  }
  if (count === 0 && !features) return null;
  if (count > FEEDBACK_LIMITS.maxExtraKeys) {
    problems.push({ path, message: `has ${count} extra keys; at most ${FEEDBACK_LIMITS.maxExtraKeys} are kept`, in: 'body' });
  }
  const bytes = Buffer.byteLength(JSON.stringify(extra), 'utf8');
  if (bytes > FEEDBACK_LIMITS.maxExtraBytes) {
    problems.push({ path, message: `extra keys serialize to ${bytes} bytes; at most ${FEEDBACK_LIMITS.maxExtraBytes}`, in: 'body' });
  }
  if (features) extra.features = features;
  return JSON.stringify(extra);
}

function checkFeatures(value: unknown, path: string, problems: ErrorDetail[]): Record<string, number> | undefined {
  const invalid = (message: string) => {
    problems.push({ path, message, in: 'body' });
    return undefined;
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return invalid('must be an object of {name: number}');
  const entries = Object.entries(value);
  if (entries.length > FEEDBACK_LIMITS.maxFeatures)
    return invalid(`has ${entries.length} features; at most ${FEEDBACK_LIMITS.maxFeatures}`);
  for (const [name, v] of entries) {
    if (FORBIDDEN_KEYS.has(name)) return invalid(`"${name}" is a reserved key name`);
    if (name.length === 0 || name.length > FEEDBACK_LIMITS.maxFeatureName)
      return invalid(`feature names are 1–${FEEDBACK_LIMITS.maxFeatureName} characters`);
    if (typeof v !== 'number' || !Number.isFinite(v)) return invalid(`feature "${name}" must be a finite number`);
  }
  return value as Record<string, number>;
}
