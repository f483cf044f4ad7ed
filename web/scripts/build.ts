/**
 * Builds the dashboard into web/dist (run by `npm run build:web`, hence by prepare and prestart),
 * writes .gz and .br next to every text file for the server to send, and prints what a first
 * visit downloads against the 300 KB gzip budget. Skips the Vite build when nothing it reads
 * changed since the last one (a stamp of the inputs' digest; the inputs are listed with the other
 * build targets' in scripts/build-if-stale.mjs, which `npm start` runs), so `npm start` stays quick.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { TARGETS, inputsDigest } from '../../scripts/build-if-stale.mjs';

const WEB = fileURLToPath(new URL('..', import.meta.url));
const REPO = path.dirname(WEB);
const DIST = path.join(WEB, 'dist');
/** The dashboard's target: its inputs, and the stamp (web/dist/.build-stamp) their digest is kept in. */
const WEB_TARGET = TARGETS.find((t) => t.name === 'web')!;
const STAMP = path.join(REPO, WEB_TARGET.stamp);
export const FIRST_VISIT_BUDGET_BYTES = 300 * 1024;

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

function compressAll(): void {
  for (const file of filesUnder(DIST)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  }
}

export interface BundleReport {
  /** Scripts index.html loads or preloads: what every first visit downloads. */
  firstVisit: { file: string; bytes: number; gzipBytes: number }[];
  firstVisitGzipBytes: number;
  css: { file: string; gzipBytes: number }[];
  /** Chunks loaded on demand (charts, heavy pages). */
  lazy: { file: string; gzipBytes: number }[];
}

const gz = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

export function bundleReport(dist = DIST): BundleReport {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const referenced = new Set(
    [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="\/?([^"]+\.js)"/g)].map((m) => path.join(dist, m[1] as string)),
  );
  const js = filesUnder(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  const firstVisit = js
    .filter((f) => referenced.has(f))
    .map((f) => ({ file: path.relative(dist, f), bytes: fs.statSync(f).size, gzipBytes: gz(f) }));
  return {
    firstVisit,
    firstVisitGzipBytes: firstVisit.reduce((s, f) => s + f.gzipBytes, 0),
    css: filesUnder(path.join(dist, 'assets'))
      .filter((f) => f.endsWith('.css'))
      .map((f) => ({ file: path.relative(dist, f), gzipBytes: gz(f) })),
    lazy: js.filter((f) => !referenced.has(f)).map((f) => ({ file: path.relative(dist, f), gzipBytes: gz(f) })),
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function printReport(report: BundleReport): void {
  const lines = [
    `dashboard: first visit downloads ${kb(report.firstVisitGzipBytes)} of JavaScript gzipped (budget ${kb(FIRST_VISIT_BUDGET_BYTES)})`,
    ...report.firstVisit.map((f) => `  ${f.file}  ${kb(f.bytes)} raw, ${kb(f.gzipBytes)} gzip`),
    ...report.css.map((f) => `  ${f.file}  ${kb(f.gzipBytes)} gzip (CSS)`),
    `  loaded on demand: ${report.lazy.map((f) => `${f.file} ${kb(f.gzipBytes)}`).join(', ') || 'nothing'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  const force = process.argv.includes('--force');
  const hash = inputsDigest(WEB_TARGET);
  const upToDate = !force && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === hash;
  if (upToDate) {
    process.stdout.write('dashboard: web/dist is up to date\n');
  } else {
    // A caller's NODE_ENV (vitest sets "test") would otherwise bundle React's development build.
    process.env.NODE_ENV = 'production';
    const { build } = await import('vite');
    await build({ configFile: path.join(WEB, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
    compressAll();
    fs.writeFileSync(STAMP, hash);
  }
  const report = bundleReport();
  if (!upToDate) printReport(report);
  if (report.firstVisitGzipBytes > FIRST_VISIT_BUDGET_BYTES) {
    fs.rmSync(STAMP, { force: true });
    throw new Error(`the first visit's JavaScript is ${kb(report.firstVisitGzipBytes)} gzipped, over the budget`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`dashboard build failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
