// The map (docs/architecture.md) held to the code, as test/fuzz/coverage.test.ts holds the fuzz
// specs to the OpenAPI document: a folder, a module or a lint boundary added without a line in the
// map fails here, and so does a path the map names that no longer exists.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAP = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

/** Every `backticked` token of the map that reads as a path: `src/x/`, `test/y.ts`, or `common/errors.ts` (under src/). */
const pathTokens = [...MAP.matchAll(/`([^`\s]+)`/g)]
  .map((m) => m[1]!)
  // A bare `model/` names a kind of folder, not a path: a path has a segment after its first slash.
  .filter((t) => /^[a-z.][\w.-]*\/[\w.-][\w./-]*$/i.test(t) && !t.startsWith('dist/'));

/** Where a token points: from the repository root, or else from src/ (the map says `common/errors.ts`). */
function resolve(token: string): string | undefined {
  return [token, `src/${token}`].find((candidate) => fs.existsSync(path.join(ROOT, candidate)));
}
const named = new Set(pathTokens.map((t) => (resolve(t) ?? t).replace(/\/$/, '')));

/** Folders below `dir` (relative to the root), `depth` levels down. */
function folders(dir: string, depth: number): string[] {
  if (depth === 0) return [];
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !['node_modules', 'dist'].includes(e.name))
    .flatMap((e) => [`${dir}/${e.name}`, ...folders(`${dir}/${e.name}`, depth - 1)]);
}

describe('docs/architecture.md is a map of the code', () => {
  it('names every folder of src/, two levels deep (floors, modules, sub-domains, topics)', () => {
    const missing = folders('src', 2).filter((f) => !named.has(f));
    expect(missing, 'folders of src/ the map does not name').toEqual([]);
  });

  it('names every top-level folder, and those of test/, web/src/ and bench/', () => {
    const top = fs
      .readdirSync(ROOT, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !['node_modules', 'dist', 'data', 'coverage'].includes(e.name))
      .map((e) => e.name);
    expect(top.length).toBeGreaterThan(5);
    expect(
      top.filter((f) => !MAP.includes(`\`${f}/\``) && ![...named].some((p) => p.startsWith(`${f}/`))),
      'top-level folders the map does not name',
    ).toEqual([]);
    const below = [...folders('test', 1), ...folders('web/src', 1), ...folders('bench', 1)];
    expect(
      below.filter((f) => !named.has(f)),
      'folders of test/, web/src/, bench/ the map does not name',
    ).toEqual([]);
  });

  it('names only paths that exist', () => {
    expect(pathTokens.length).toBeGreaterThan(100);
    expect(
      pathTokens.filter((t) => resolve(t) === undefined),
      'paths in the map that exist neither from the root nor under src/',
    ).toEqual([]);
  });

  it('lists every lint boundary of eslint.config.js in its table', async () => {
    const config = (await import(path.join(ROOT, 'eslint.config.js'))).default as { rules?: Record<string, unknown> }[];
    const boundaries = [...new Set(config.flatMap((block) => Object.keys(block.rules ?? {})))]
      .filter((rule) => rule.startsWith('boundaries/'))
      .map((rule) => rule.slice('boundaries/'.length));
    expect(boundaries.length).toBeGreaterThan(20);
    // `subdomains-experiments-*` stands for the boundaries generated from that module's folders.
    const names = [...MAP.matchAll(/`([\w*-]+)`/g)].map((m) => m[1]!);
    const matches = (boundary: string) => names.some((n) => n === boundary || (n.endsWith('*') && boundary.startsWith(n.slice(0, -1))));
    expect(
      boundaries.filter((b) => !matches(b)),
      'boundaries missing from the map',
    ).toEqual([]);
  });

  it('gives the modules in the order container.ts registers their routes', () => {
    const container = fs.readFileSync(path.join(ROOT, 'src/container.ts'), 'utf8');
    const list = /const modules: DomainModule<unknown>\[\] = \[([^\]]+)\]/.exec(container)?.[1];
    expect(list, 'the module list in src/container.ts').toBeDefined();
    const sentence = /registered in this order: ([^.]+)\./.exec(MAP)?.[1];
    expect(sentence, 'a "registered in this order: …" sentence in the map').toBeDefined();
    expect(sentence!.split(',').map((s) => s.trim())).toEqual(list!.split(',').map((s) => s.trim()));
  });
});
