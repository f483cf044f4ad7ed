import type { Dataset } from './dataset.js';

/**
 * LETOR / SVMlight parser: `label [qid:Q] idx:val … [# comment]`.
 *
 * Absent sparse entries become NaN ("missing") by default, which is what XGBoost does for
 * libsvm input, so the trainer learns a default direction for them. Pass `missing: 'zero'`
 * when the model will be served by the Elasticsearch/OpenSearch LTR plugin, which feeds 0
 * for a feature that did not match.
 */
export interface LetorOptions {
  /** Ranking datasets need `qid:` on every line (default true). */
  requireQid?: boolean;
  /** Value of an absent sparse entry: NaN (default, XGBoost's reading) or 0. */
  missing?: 'nan' | 'zero';
  /** Force at least this many columns (e.g. to match a model's feature set). */
  minFeatureIndex?: number;
  maxFeatureIndex?: number;
}

export class LetorParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'LetorParseError';
  }
}

/**
 * Incremental parser: feed text chunks (split anywhere) or whole lines, then `finish()`.
 * Keeps the sparse triples in growable typed arrays until the width is known.
 */
export class LetorParser {
  private readonly requireQid: boolean;
  private readonly missing: 'nan' | 'zero';
  private pending = '';
  private lineNo = 0;
  private labels: number[] = [];
  private rowStart: number[] = [0];
  private idx = new Int32Array(1024);
  private val = new Float32Array(1024);
  private nnz = 0;
  private minIdx = Infinity;
  private maxIdx = -1;
  private qids: string[] = [];
  private groupSizes: number[] = [];
  private seenQids = new Set<string>();
  private anyQid = false;
  private seen = new Int32Array(64);
  private rowMark = 0;

  constructor(private readonly opts: LetorOptions = {}) {
    this.requireQid = opts.requireQid ?? true;
    this.missing = opts.missing ?? 'nan';
  }

  /** Feed an arbitrary slice of the file; a line cut across chunks is held until completed. */
  pushChunk(chunk: string): void {
    const text = this.pending + chunk;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      this.pushLine(text.slice(start, nl));
      start = nl + 1;
    }
    this.pending = text.slice(start);
  }

  pushLine(rawLine: string): void {
    this.lineNo++;
    const hash = rawLine.indexOf('#');
    const line = (hash >= 0 ? rawLine.slice(0, hash) : rawLine).trim();
    if (line === '') return;
    const tokens = line.split(/\s+/);
    const label = Number(tokens[0]);
    if (!Number.isFinite(label)) throw this.err(`label "${tokens[0]}" is not a number`);
    let t = 1;
    let qid: string | undefined;
    if (tokens[1]?.startsWith('qid:')) {
      qid = tokens[1].slice(4);
      if (qid === '') throw this.err('empty qid');
      t = 2;
    }
    if (qid === undefined && this.requireQid) throw this.err('missing qid: (required for ranking data)');
    if (qid !== undefined) this.trackQuery(qid);
    this.rowMark++;
    for (; t < tokens.length; t++) {
      const tok = tokens[t]!;
      const colon = tok.indexOf(':');
      if (colon <= 0) throw this.err(`expected idx:value, got "${tok}"`);
      const idxText = tok.slice(0, colon);
      if (!/^\d+$/.test(idxText)) throw this.err(`feature index "${idxText}" is not a non-negative integer`);
      const i = Number(idxText);
      const v = Number(tok.slice(colon + 1));
      if (tok.slice(colon + 1) === '' || Number.isNaN(v)) throw this.err(`value of feature ${i} is not a number`);
      if (this.markSeen(i)) throw this.err(`feature ${i} appears twice`);
      this.append(i, v);
    }
    this.labels.push(label);
    this.rowStart.push(this.nnz);
  }

  /**
   * Flush the last unterminated line and check the whole file without building the dense
   * matrix: what an upload validates before storing the text.
   */
  summarize(): { rows: number; queries: number; features: number } {
    if (this.pending.trim() !== '') this.pushLine(this.pending);
    this.pending = '';
    const n = this.labels.length;
    if (this.anyQid && this.groupSizes.reduce((a, b) => a + b, 0) !== n) {
      throw new LetorParseError(this.lineNo, 'some lines have qid: and others do not');
    }
    const lo = this.minIdx === 0 ? 0 : 1;
    return { rows: n, queries: this.qids.length, features: this.maxIdx < 0 ? 0 : this.maxIdx - lo + 1 };
  }

  /** Flush the last unterminated line and build the dense matrix. */
  finish(): Dataset {
    if (this.pending.trim() !== '') this.pushLine(this.pending);
    this.pending = '';
    const n = this.labels.length;
    if (this.anyQid && this.groupSizes.reduce((a, b) => a + b, 0) !== n) {
      throw new LetorParseError(this.lineNo, 'some lines have qid: and others do not');
    }
    const lo = Math.min(this.opts.minFeatureIndex ?? Infinity, this.minIdx === Infinity ? 1 : this.minIdx) === 0 ? 0 : 1;
    const hi = Math.max(this.maxIdx, this.opts.maxFeatureIndex ?? -1, lo);
    const F = hi - lo + 1;
    const features = new Float32Array(n * F).fill(this.missing === 'nan' ? Number.NaN : 0);
    for (let r = 0; r < n; r++) {
      const base = r * F;
      for (let k = this.rowStart[r]!; k < this.rowStart[r + 1]!; k++) {
        features[base + this.idx[k]! - lo] = this.val[k]!;
      }
    }
    const featureNames = Array.from({ length: F }, (_, j) => String(lo + j));
    const out: Dataset = { numRows: n, numFeatures: F, features, labels: Float32Array.from(this.labels), featureNames };
    if (!this.anyQid) return out;
    const groups = new Int32Array(this.groupSizes.length + 1);
    for (let q = 0; q < this.groupSizes.length; q++) groups[q + 1] = groups[q]! + this.groupSizes[q]!;
    return { ...out, groups, qids: this.qids };
  }

  private trackQuery(qid: string): void {
    this.anyQid = true;
    const last = this.qids[this.qids.length - 1];
    if (last === qid) {
      this.groupSizes[this.groupSizes.length - 1]!++;
      return;
    }
    // Pairs only make sense inside one query, so its rows must be contiguous (LightGBM and XGBoost agree).
    if (this.seenQids.has(qid)) throw this.err(`qid ${qid} reappears after other queries; rows of a query must be contiguous`);
    this.seenQids.add(qid);
    this.qids.push(qid);
    this.groupSizes.push(1);
  }

  /** Per-index stamp of the last row that used it: duplicate check in O(1). */
  private markSeen(i: number): boolean {
    if (i >= this.seen.length) {
      const grown = new Int32Array(Math.max(i + 1, this.seen.length * 2));
      grown.set(this.seen);
      this.seen = grown;
    }
    if (this.seen[i] === this.rowMark) return true;
    this.seen[i] = this.rowMark;
    return false;
  }

  private append(i: number, v: number): void {
    if (this.nnz === this.idx.length) {
      const idx = new Int32Array(this.idx.length * 2);
      idx.set(this.idx);
      this.idx = idx;
      const val = new Float32Array(this.val.length * 2);
      val.set(this.val);
      this.val = val;
    }
    this.idx[this.nnz] = i;
    this.val[this.nnz] = v;
    this.nnz++;
    if (i < this.minIdx) this.minIdx = i;
    if (i > this.maxIdx) this.maxIdx = i;
  }

  private err(message: string): LetorParseError {
    return new LetorParseError(this.lineNo, message);
  }
}

/** Parse a whole file already in memory. */
export function parseLetor(text: string, opts: LetorOptions = {}): Dataset {
  const p = new LetorParser(opts);
  p.pushChunk(text);
  return p.finish();
}

/** Parse a stream of text chunks (e.g. an upload body decoded to strings, or readline lines + '\n'). */
export async function parseLetorStream(source: AsyncIterable<string> | Iterable<string>, opts: LetorOptions = {}): Promise<Dataset> {
  const p = new LetorParser(opts);
  for await (const chunk of source) p.pushChunk(chunk);
  return p.finish();
}

/**
 * Add `qid:` to SVMlight lines without one, from a `.query` group file (one group size per
 * line, LightGBM's convention). Query ids are 1, 2, … in file order.
 */
export function attachQueryIds(svmlight: string, queryFile: string): string {
  const sizes = queryFile
    .split(/\r?\n/)
    .filter((s) => s.trim() !== '')
    .map(Number);
  const lines = svmlight.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const total = sizes.reduce((a, b) => a + b, 0);
  if (sizes.some((s) => !Number.isInteger(s) || s < 0)) throw new Error('query file must hold one non-negative integer per line');
  if (total !== lines.length) throw new Error(`query file sums to ${total} rows but the data has ${lines.length} lines`);
  const out: string[] = [];
  let row = 0;
  sizes.forEach((size, q) => {
    for (let k = 0; k < size; k++, row++) {
      const line = lines[row]!;
      const m = /^(\s*\S+)(.*)$/.exec(line);
      if (!m) throw new LetorParseError(row + 1, 'empty line inside a query group');
      if (/\sqid:/.test(line)) throw new LetorParseError(row + 1, 'line already has a qid');
      out.push(`${m[1]} qid:${q + 1}${m[2]}`);
    }
  });
  return out.join('\n') + '\n';
}
