/**
 * The in-memory training set shared by the parser, the trainer and the metrics.
 * Dense row-major Float32 so a worker thread can receive it as transferable buffers.
 */
export interface Dataset {
  readonly numRows: number;
  readonly numFeatures: number;
  /** Row-major, numRows * numFeatures; NaN means "missing" (see letor.ts for how absent entries map). */
  readonly features: Float32Array;
  readonly labels: Float32Array;
  /** Query boundaries: rows of query q are [groups[q], groups[q+1]). Absent for non-ranking data. */
  readonly groups?: Int32Array;
  /** One name per column; LETOR columns are named by their SVMlight index ("1", "2", …). */
  readonly featureNames: readonly string[];
  /** Original query ids, one per query (parallel to groups), when the source had them. */
  readonly qids?: readonly string[];
}

/** Group sizes (one per query) → boundary offsets. */
export function groupsFromSizes(sizes: ArrayLike<number>): Int32Array {
  const out = new Int32Array(sizes.length + 1);
  for (let i = 0; i < sizes.length; i++) out[i + 1] = out[i]! + (sizes[i] ?? 0);
  return out;
}

/** Copy the given queries (by index, in the given order) into a new dataset. */
export function subsetQueries(data: Dataset, queryIdx: ArrayLike<number>): Dataset {
  const groups = data.groups;
  if (!groups) throw new Error('subsetQueries needs a dataset with query groups');
  let rows = 0;
  for (let i = 0; i < queryIdx.length; i++) {
    const q = queryIdx[i]!;
    rows += groups[q + 1]! - groups[q]!;
  }
  const F = data.numFeatures;
  const features = new Float32Array(rows * F);
  const labels = new Float32Array(rows);
  const newGroups = new Int32Array(queryIdx.length + 1);
  const qids: string[] = [];
  let at = 0;
  for (let i = 0; i < queryIdx.length; i++) {
    const q = queryIdx[i]!;
    const a = groups[q]!;
    const b = groups[q + 1]!;
    features.set(data.features.subarray(a * F, b * F), at * F);
    labels.set(data.labels.subarray(a, b), at);
    at += b - a;
    newGroups[i + 1] = at;
    if (data.qids) qids.push(data.qids[q] ?? String(q));
  }
  return {
    numRows: rows,
    numFeatures: F,
    features,
    labels,
    groups: newGroups,
    featureNames: data.featureNames,
    ...(data.qids ? { qids } : {}),
  };
}

/** Copy the given rows into a new dataset (for non-ranking data). */
export function subsetRows(data: Dataset, rowIdx: ArrayLike<number>): Dataset {
  const F = data.numFeatures;
  const features = new Float32Array(rowIdx.length * F);
  const labels = new Float32Array(rowIdx.length);
  for (let i = 0; i < rowIdx.length; i++) {
    const r = rowIdx[i]!;
    features.set(data.features.subarray(r * F, (r + 1) * F), i * F);
    labels[i] = data.labels[r]!;
  }
  return { numRows: rowIdx.length, numFeatures: F, features, labels, featureNames: data.featureNames };
}
