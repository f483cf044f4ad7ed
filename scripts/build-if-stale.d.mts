/** A build target of scripts/build-if-stale.mjs (paths relative to the repository). */
export interface BuildTarget {
  name: string;
  inputs: string[];
  outputs: string[];
  stamp: string;
  commands: string[][];
}

export const REPO: string;
export const TARGETS: BuildTarget[];
export function inputsDigest(target: Pick<BuildTarget, 'inputs'>, root?: string): string;
export function staleReason(target: BuildTarget, root?: string, digest?: string): string | null;
export function writeStamp(target: Pick<BuildTarget, 'stamp'>, digest: string, root?: string): void;
export function buildIfStale(options?: {
  names?: string[];
  force?: boolean;
  root?: string;
  run?: (command: string[], cwd: string) => void;
  say?: (line: string) => void;
}): string[];
