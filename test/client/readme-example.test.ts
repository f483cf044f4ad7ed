import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.js';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGE = path.join(REPO, 'packages/client');
const MARKER = '<!-- The block below is run by test/client/readme-example.test.ts';

/** The fenced block that follows the marker in packages/client/README.md. */
function readmeExample(): string {
  const readme = fs.readFileSync(path.join(PACKAGE, 'README.md'), 'utf8');
  const at = readme.indexOf(MARKER);
  if (at < 0) throw new Error('packages/client/README.md lost the marker of its runnable example');
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block) throw new Error('no ```js block after the marker');
  return block[1]!;
}

/**
 * The README's example, run as a user of the package runs it: the client packed with `npm pack`
 * (built from this checkout's source into the pack), installed from the tarball into an empty
 * project, and the five lines run by node against a real service.
 */
describe('packages/client README: the five-line example', { timeout: 120_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-client-readme-'));
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is five lines and, installed from the packed tarball, stores the item it tracks', async () => {
    const example = readmeExample();
    expect(example.trim().split('\n')).toHaveLength(5);

    // The package as `npm pack` in packages/client makes it, with dist/ built from the current source.
    const pkg = path.join(dir, 'pkg');
    fs.mkdirSync(pkg);
    for (const f of ['package.json', 'README.md']) fs.copyFileSync(path.join(PACKAGE, f), path.join(pkg, f));
    await run(process.execPath, [
      path.join(REPO, 'node_modules/typescript/bin/tsc'),
      '-p',
      path.join(PACKAGE, 'tsconfig.json'),
      '--outDir',
      path.join(pkg, 'dist'),
    ]);
    const { stdout: packed } = await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: pkg });
    const tarball = path.join(dir, packed.trim().split('\n').at(-1)!);

    const app = path.join(dir, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'readme-app', private: true, type: 'module' }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', tarball], { cwd: app });
    fs.writeFileSync(path.join(app, 'example.mjs'), example);

    const { stdout } = await run(process.execPath, ['example.mjs'], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '', SEARCHLOOP_URL: url },
    });
    expect(stdout.trim()).toBe('{ sent: 1, dropped: 0, errors: [] }');
    const stored = (await t.app.inject({ method: 'GET', url: '/api/cortex/feedback?sessionId=readme-session' })).json().data.items;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ queryId: 'q-1', metadata: { userAction: 'click', resultId: 'doc-7' } });
  });
});
