/* global process, URL, console */
/**
 * What `npm run build` and `npm start` (its prestart) run: builds the server (tsc into dist/), the
 * dashboard (web/dist) and the client package (packages/client/dist), each only when what it is built
 * from changed since its last build. A target is fresh when its outputs exist and the stamp written
 * after its last build equals the digest of its inputs (the paths and contents of every input file),
 * so an unchanged checkout starts without running tsc or Vite (a no-op `tsc --incremental` still
 * parses the whole program: 5 s of CPU), and an edit, a deleted file or a `git checkout` rebuilds.
 * Plain JavaScript: it runs before anything is built, without tsx.
 *
 *   node scripts/build-if-stale.mjs            # every stale target
 *   node scripts/build-if-stale.mjs --force    # every target
 *   node scripts/build-if-stale.mjs web        # only the named ones
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');

/**
 * Each target: its inputs (files or folders, read recursively), the files a build must leave, the
 * stamp holding the digest of the inputs it was built from, and the commands that build it.
 * package-lock.json is an input of each: a dependency upgrade rebuilds.
 */
export const TARGETS = [
  {
    name: 'server',
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
    outputs: ['dist/cli/cli.js'],
    stamp: 'dist/.inputs-digest',
    commands: [[process.execPath, TSC, '-p', 'tsconfig.build.json']],
  },
  {
    name: 'web',
    inputs: [
      'web/src',
      'web/public',
      'web/index.html',
      'web/vite.config.ts',
      'web/tsconfig.json',
      'web/scripts/build.ts',
      'scripts/build-if-stale.mjs',
      'package-lock.json',
    ],
    outputs: ['web/dist/index.html'],
    // web/scripts/build.ts writes it (`npm run build:web` alone skips an unchanged build too).
    stamp: 'web/dist/.build-stamp',
    // --force: this script has found it stale already (the build script would hash the inputs again).
    commands: [[process.execPath, '--import', 'tsx', 'web/scripts/build.ts', '--force']],
  },
  {
    name: 'client',
    inputs: ['packages/client/src', 'packages/client/tsconfig.json', 'packages/client/scripts/size.mjs', 'package-lock.json'],
    outputs: ['packages/client/dist/index.js', 'packages/client/dist/beacon.js'],
    stamp: 'packages/client/dist/.inputs-digest',
    commands: [
      [process.execPath, TSC, '-p', 'packages/client/tsconfig.json'],
      [process.execPath, 'packages/client/scripts/size.mjs'],
    ],
  },
];

/** Every file under `entry` (or `entry` itself), relative to `root`, sorted; a missing entry is none. */
function filesOf(root, entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

/** The digest of a target's inputs: each file's path and contents, in a fixed order. */
export function inputsDigest(target, root = REPO) {
  const hash = createHash('sha256');
  for (const file of target.inputs.flatMap((entry) => filesOf(root, entry))) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Why the target must be built, or null when its outputs exist and were built from these very inputs. */
export function staleReason(target, root = REPO, digest = inputsDigest(target, root)) {
  const missing = target.outputs.find((file) => !fs.existsSync(path.join(root, file)));
  if (missing) return `${missing} is missing`;
  const stamp = path.join(root, target.stamp);
  if (!fs.existsSync(stamp)) return 'no record of the inputs it was built from';
  if (fs.readFileSync(stamp, 'utf8').trim() !== digest) return 'its inputs changed since the last build';
  return null;
}

/** Records that the target's outputs are built from `digest` (after its command succeeded). */
export function writeStamp(target, digest, root = REPO) {
  const stamp = path.join(root, target.stamp);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, digest);
}

/** Builds each stale target (every one with `force`); returns the names built. Throws when a build fails. */
export function buildIfStale({ names = TARGETS.map((t) => t.name), force = false, root = REPO, run = runCommand, say = console.log } = {}) {
  const built = [];
  for (const target of TARGETS.filter((t) => names.includes(t.name))) {
    const digest = inputsDigest(target, root);
    const reason = force ? 'forced' : staleReason(target, root, digest);
    if (reason === null) {
      say(`${target.name}: up to date`);
      continue;
    }
    say(`${target.name}: building (${reason})`);
    for (const command of target.commands) run(command, root);
    writeStamp(target, digest, root);
    built.push(target.name);
  }
  return built;
}

function runCommand([command, ...args], cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${[command, ...args].join(' ')} exited with ${result.status ?? result.signal}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const names = args.filter((a) => !a.startsWith('--'));
  try {
    buildIfStale({ force: args.includes('--force'), ...(names.length > 0 ? { names } : {}) });
  } catch (error) {
    process.stderr.write(`build failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
