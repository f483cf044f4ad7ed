import path from 'node:path';

/** This checkout. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

export type Build = [label: 'baseline' | 'this build', root: string];

/**
 * The builds a CPU bench compares, each a directory holding a dist/: BASELINE (e.g. a copy of
 * dist/ made before a change, or a built checkout of another revision) when given, and "this
 * build", which is this checkout unless CANDIDATE names another directory.
 */
export function buildsToCompare(): Build[] {
  const baseline = process.env.BASELINE ? path.resolve(process.env.BASELINE) : undefined;
  const candidate = process.env.CANDIDATE ? path.resolve(process.env.CANDIDATE) : ROOT;
  return [...(baseline ? [['baseline', baseline] as Build] : []), ['this build', candidate]];
}

/** Round `round`'s order (from 1): alternate which build goes first, so a drift in machine load does not favour one. */
export function inRoundOrder(builds: Build[], round: number): Build[] {
  return round % 2 === 1 ? builds : [...builds].reverse();
}
