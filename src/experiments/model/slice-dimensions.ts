/**
 * Slice dimensions (issue 13): `analysis.dimensions` names fields of a session's first attributed feedback
 * item (deviceType, searchType, language, category) or assign attributes as `attr:<name>` (the attribute
 * sent with the unit's first exposure, e.g. `attr:country`). The prefix keeps attribute names apart from
 * the feedback fields (an attribute may well be called `language`).
 */
export const FEEDBACK_SLICE_DIMENSIONS = ['deviceType', 'searchType', 'language', 'category'] as const;
export type FeedbackSliceDimension = (typeof FEEDBACK_SLICE_DIMENSIONS)[number];
export type AttributeSliceDimension = `attr:${string}`;
export type SliceDimension = FeedbackSliceDimension | AttributeSliceDimension;

export const ATTRIBUTE_DIMENSION_PREFIX = 'attr:';
/** Attribute names: letters, digits, `_ . -`, up to 27 characters (the stored dimension is at most 32). */
export const SLICE_DIMENSION_PATTERN = '^(deviceType|searchType|language|category|attr:[A-Za-z0-9_.-]{1,27})$';
const SLICE_DIMENSION_RE = new RegExp(SLICE_DIMENSION_PATTERN);

export const isSliceDimension = (d: unknown): d is SliceDimension => typeof d === 'string' && SLICE_DIMENSION_RE.test(d);

/** The attribute an `attr:` dimension names, or null for a feedback field. */
export const attributeOf = (d: string): string | null =>
  d.startsWith(ATTRIBUTE_DIMENSION_PREFIX) ? d.slice(ATTRIBUTE_DIMENSION_PREFIX.length) : null;

/** The value of a session whose first attributed item (or first exposure, for attributes) did not say. */
export const UNSET_SLICE = '(unset)';
/** Longer values are cut to this length (the slice table's key column). */
export const SLICE_VALUE_MAX = 128;

/**
 * An assign attribute as a slice value: strings as sent, numbers and booleans as text, anything else
 * (absent, null, arrays) `(unset)`; cut to SLICE_VALUE_MAX.
 */
export function attributeSliceValue(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, SLICE_VALUE_MAX);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).slice(0, SLICE_VALUE_MAX);
  return UNSET_SLICE;
}

/** The attributes a unit keeps for its experiment's `attr:` dimensions (null when it declares none). */
export function sliceAttributes(
  dimensions: readonly string[],
  attributes: Readonly<Record<string, unknown>>,
): Record<string, string> | null {
  const names = dimensions.map(attributeOf).filter((a): a is string => a !== null);
  if (names.length === 0) return null;
  return Object.fromEntries(names.map((a) => [a, attributeSliceValue(attributes[a])]));
}
