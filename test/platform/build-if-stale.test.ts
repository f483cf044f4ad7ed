import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TARGETS, buildIfStale, inputsDigest, staleReason } from '../../scripts/build-if-stale.mjs';

/** A checkout in a temporary folder: one file per input of every target, and a build that writes the outputs. */
describe('npm start builds only what changed (scripts/build-if-stale.mjs)', () => {
  let root: string;
  let ran: string[][];
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  // The fake build: records the command and leaves the outputs of the target whose command it is.
  const run = (command: string[]) => {
    ran.push(command);
    const target = TARGETS.find((t) => t.commands.some((c) => c.join(' ') === command.join(' ')))!;
    for (const out of target.outputs) write(out, 'built');
  };
  const build = (options: { force?: boolean; names?: string[] } = {}) => buildIfStale({ root, run, say: () => undefined, ...options });

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-if-stale-'));
    ran = [];
    for (const target of TARGETS) for (const input of target.inputs) write(path.extname(input) ? input : `${input}/index.ts`, input);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('builds every target of a fresh clone (no outputs), then nothing on the next start', () => {
    expect(TARGETS.map((t) => staleReason(t, root))).toEqual([
      'dist/cli/cli.js is missing',
      'web/dist/index.html is missing',
      'packages/client/dist/index.js is missing',
    ]);
    expect(build()).toEqual(['server', 'web', 'client']);
    expect(ran).toHaveLength(4); // the client's build is tsc, then its size check
    ran = [];
    expect(build()).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('rebuilds only the target whose input was edited, added or deleted', () => {
    build();
    write('src/index.ts', 'changed');
    expect(build()).toEqual(['server']);
    write('web/src/page.tsx', 'a new page');
    expect(build()).toEqual(['web']);
    fs.rmSync(path.join(root, 'web/src/page.tsx'));
    expect(build()).toEqual(['web']);
    // A dependency upgrade rebuilds everything.
    write('package-lock.json', '{"lockfileVersion": 4}');
    expect(build()).toEqual(['server', 'web', 'client']);
  });

  it('rebuilds a target whose output was removed, and everything with --force', () => {
    build();
    fs.rmSync(path.join(root, 'packages/client/dist/beacon.js'));
    expect(build()).toEqual(['client']);
    expect(build({ force: true })).toEqual(['server', 'web', 'client']);
    expect(build({ force: true, names: ['web'] })).toEqual(['web']);
  });

  it('does not record a failed build as done: the next start tries again', () => {
    expect(() =>
      buildIfStale({
        root,
        say: () => undefined,
        run: () => {
          throw new Error('tsc exited with 2');
        },
      }),
    ).toThrow('tsc exited with 2');
    expect(staleReason(TARGETS[0]!, root)).toBe('dist/cli/cli.js is missing');
    write('dist/cli/cli.js', 'half-built');
    expect(staleReason(TARGETS[0]!, root)).toBe('no record of the inputs it was built from');
  });

  it('digests contents, not times: touching a file without changing it rebuilds nothing', () => {
    build();
    const before = inputsDigest(TARGETS[0]!, root);
    const future = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'src/index.ts'), future, future);
    expect(inputsDigest(TARGETS[0]!, root)).toBe(before);
    expect(build()).toEqual([]);
  });
});
