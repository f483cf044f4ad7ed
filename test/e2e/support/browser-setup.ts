import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumPath: string | null;
  }
}

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Looks for Chromium once for the whole run, as the PostgreSQL probe does for the database:
 * missing, the browser tests are skipped with a loud banner, or, with REQUIRE_BROWSER=1 (as
 * .ci/run sets), the run fails. When it is there, the dashboard is built first (a no-op when
 * web/dist is current), so the browser tests always drive the current source.
 */
export default async function setup(project: TestProject): Promise<void> {
  const chromium = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  if (!fs.existsSync(chromium)) {
    if (process.env.REQUIRE_BROWSER === '1') {
      throw new Error(`REQUIRE_BROWSER=1 but there is no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`);
    }
    const bar = '!'.repeat(78);
    process.stderr.write(
      `\n${bar}\n!! No Chromium at ${chromium}.\n!! SKIPPING every browser test of the dashboard (test/e2e).\n!! apt-get install chromium or set CHROMIUM_PATH; REQUIRE_BROWSER=1 makes this an error.\n${bar}\n\n`,
    );
    project.provide('chromiumPath', null);
    return;
  }
  execFileSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'web/scripts/build.ts')], { cwd: REPO, stdio: 'inherit' });
  project.provide('chromiumPath', chromium);
}
