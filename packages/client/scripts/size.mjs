/* global process, URL */
// Bundles and minifies the browser beacon with esbuild, measures it gzipped, and fails the build
// above the 4 KB budget. Writes dist/beacon.min.js (a drop-in ES module for pages) and dist/size.json.
import { build } from 'esbuild';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET = 4096;
const root = fileURLToPath(new URL('..', import.meta.url));

export async function measureBeacon() {
  const result = await build({
    entryPoints: [`${root}src/beacon.ts`],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    write: false,
    legalComments: 'none',
  });
  const code = result.outputFiles[0].contents;
  return { code, minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, budget: BUDGET };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { code, ...size } = await measureBeacon();
  fs.mkdirSync(`${root}dist`, { recursive: true });
  fs.writeFileSync(`${root}dist/beacon.min.js`, code);
  fs.writeFileSync(`${root}dist/size.json`, `${JSON.stringify(size)}\n`);
  process.stdout.write(`@searchloop/client/beacon: ${size.minified} B minified, ${size.gzipped} B min+gzip (budget ${BUDGET} B)\n`);
  if (size.gzipped > BUDGET) {
    process.stderr.write('the beacon is over its 4 KB budget\n');
    process.exit(1);
  }
}
