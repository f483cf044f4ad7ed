import type { Tree } from '../trees/tree.js';

/**
 * A model file that cannot become a searchloop model. `field` is the input at fault (the file
 * itself, or the names given to map its features); the message says where in the file it failed.
 */
export class ModelImportError extends Error {
  constructor(
    message: string,
    readonly field: 'model' | 'featureNames' = 'model',
  ) {
    super(message);
    this.name = 'ModelImportError';
  }
}

export type ImportFormat = 'xgboost-json' | 'xgboost-dump' | 'lightgbm-text';

/** What an import parser hands back beside the model: facts for the version's record. */
export interface ImportSummary {
  format: ImportFormat;
  trees: number;
  /** The file's own feature names (before any override). */
  sourceFeatureNames: string[];
  /** The objective as the file names it ("rank:ndcg", "lambdarank"). */
  sourceObjective: string;
}

/** The file's names, or `override` when given (same count: the model's feature i is override[i]). */
export function mapFeatureNames(own: readonly string[], override: readonly string[] | undefined): string[] {
  if (override === undefined) return [...own];
  if (override.length !== own.length) {
    throw new ModelImportError(`has ${override.length} names; the model has ${own.length} features (${preview(own)})`, 'featureNames');
  }
  const seen = new Set<string>();
  for (const [i, name] of override.entries()) {
    if (name.length === 0) throw new ModelImportError(`name ${i} is empty`, 'featureNames');
    if (seen.has(name)) throw new ModelImportError(`name ${i} ("${name}") appears twice`, 'featureNames');
    seen.add(name);
  }
  return [...override];
}

function preview(names: readonly string[]): string {
  return names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')}, …`;
}

/**
 * Fills `internalValue` with each node's cover-weighted mean leaf value (XGBoost's node mean
 * values, what its approximate contributions use), so explain() has a value at every node.
 * Falls back to the plain mean where covers are all zero.
 */
export function fillMeanValues(t: Tree): void {
  const walk = (ref: number): [sum: number, weight: number] => {
    if (ref < 0) {
      const w = t.leafCover[~ref]! > 0 ? t.leafCover[~ref]! : 1;
      return [t.leafValue[~ref]! * w, w];
    }
    const [ls, lw] = walk(t.left[ref]!);
    const [rs, rw] = walk(t.right[ref]!);
    t.internalValue[ref] = (ls + rs) / (lw + rw);
    return [ls + rs, lw + rw];
  };
  if (t.feature.length > 0) walk(0);
}

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);
const MAX_FLOAT32 = 3.4028234663852886e38;

/** The next float32 above `f` (itself a float32, not NaN, not +Infinity). */
function nextUpFloat32(f: number): number {
  if (f === 0) return 1.401298464324817e-45;
  f32[0] = f;
  i32[0]! += f > 0 ? 1 : -1;
  return f32[0]!;
}

/**
 * A float32 threshold t' with (v < t') ⇔ (v ≤ t) for every float32 v: LightGBM's `x <= t`
 * turned into our `x < t'` for float32 rows. t' is the float32 after the largest float32 ≤ t.
 * Beyond float32's range the cut is clamped to its largest value (only v = 3.4e38 would differ).
 */
export function lessOrEqualAsLessThan(t: number): number {
  let f = Math.fround(t);
  if (f > t) f = f === Number.POSITIVE_INFINITY ? MAX_FLOAT32 : prevFloat32(f);
  if (f >= MAX_FLOAT32) return MAX_FLOAT32;
  return nextUpFloat32(f);
}

function prevFloat32(f: number): number {
  return -nextUpFloat32(-f);
}
