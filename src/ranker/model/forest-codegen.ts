import { scoreRow, type CompiledForest } from './forest.js';

/** Raw score of one row starting at `base` in a row-major buffer. */
export type RowScorer = (x: ArrayLike<number>, base: number) => number;
/** Some trees' leaf values added to `s`. */
type Chunk = (x: ArrayLike<number>, base: number, s: number) => number;

/**
 * Trees deeper than this are scored by the array walk: nested `if`s that deep would exceed what
 * the parser and the optimizing compiler take gladly, and real boosted trees are far shallower.
 */
const MAX_DEPTH = 64;
/**
 * Internal nodes per generated function. V8 optimizes a function only up to a bytecode size (about
 * 60 KB): measured with a 100-tree 31-leaf model (bench/ranker/score.ts), chunks of 600–1 000 nodes
 * score 100 rows in 0.33–0.46 ms, one function per tree 1.1 ms (calls), and 1 500 nodes or more
 * 2–3.8 ms (not optimized, slower than the array walk's 0.84). A forest holding a tree bigger than
 * this is scored by the array walk, whole.
 */
const NODES_PER_CHUNK = 800;

/** A number as a literal that reads back as exactly the same double (String keeps all digits; -0 kept). */
function literal(v: number): string {
  if (Object.is(v, -0)) return '-0';
  if (Number.isNaN(v)) return 'NaN';
  return String(v);
}

/**
 * The forest as straight-line JavaScript: each tree a nested `if` with its thresholds and feature
 * offsets as constants, so scoring reads the row and takes branches, with none of the array walk's
 * node loads (three to four typed-array reads per node). It computes what `scoreRow` computes, bit for
 * bit: the same comparisons (a NaN feature takes the node's default side: `v < t` is false for NaN,
 * so a default-left node tests `!(v >= t)`), and leaf values added to the base score in tree order.
 *
 * The source is built from numbers alone (indices and double literals), never from model text, so
 * an imported model cannot inject code. Falls back to `scoreRow` for the whole forest when a tree
 * is deeper than MAX_DEPTH or has more than NODES_PER_CHUNK internal nodes.
 */
export function compileScorer(f: CompiledForest): RowScorer {
  const depth = (ref: number, d: number): number => {
    if (ref < 0 || d > MAX_DEPTH) return d;
    return Math.max(depth(f.left[ref]!, d + 1), depth(f.right[ref]!, d + 1));
  };
  const size = (ref: number): number => (ref < 0 ? 0 : 1 + size(f.left[ref]!) + size(f.right[ref]!));
  for (let t = 0; t < f.roots.length; t += 1) {
    if (depth(f.roots[t]!, 0) > MAX_DEPTH || size(f.roots[t]!) > NODES_PER_CHUNK) return (x, base) => scoreRow(f, x, base);
  }

  const emit = (ref: number, out: string[]): void => {
    if (ref < 0) {
      out.push(`s+=${literal(f.leafValue[~ref]!)};`);
      return;
    }
    const v = `x[b+${f.feature[ref]!}]`;
    const t = literal(f.threshold[ref]!);
    out.push(f.defaultLeft[ref] === 1 ? `if(!(${v}>=${t})){` : `if(${v}<${t}){`);
    emit(f.left[ref]!, out);
    out.push('}else{');
    emit(f.right[ref]!, out);
    out.push('}');
  };

  const chunks: Chunk[] = [];
  let body: string[] = [];
  let nodes = 0;
  const flush = () => {
    if (body.length === 0) return;
    chunks.push(new Function('x', 'b', 's', `"use strict";${body.join('')}return s;`) as Chunk);
    body = [];
    nodes = 0;
  };
  for (let t = 0; t < f.roots.length; t += 1) {
    const treeNodes = size(f.roots[t]!);
    if (nodes + treeNodes > NODES_PER_CHUNK) flush();
    emit(f.roots[t]!, body);
    nodes += treeNodes;
  }
  flush();

  const baseScore = f.baseScore;
  return (x, base) => {
    let s = baseScore;
    for (let i = 0; i < chunks.length; i += 1) s = chunks[i]!(x, base, s);
    return s;
  };
}
