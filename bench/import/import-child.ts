/**
 * One `searchloop import` in its own process, for bench/import/run.ts: prints one JSON line with
 * the time of the command, its peak RSS (process.resourceUsage().maxRSS, and RSS sampled every
 * 100 ms) and its end report. Arguments: the import's arguments; database from the environment.
 */
import { runImportCommand } from '../../src/cli-import.js';
import { loadConfig } from '../../src/config.js';

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
let report = '';
const started = performance.now();
const code = await runImportCommand(process.argv.slice(2), () => loadConfig(process.env), {
  out: (t) => void (report += t),
  err: () => undefined,
  tty: false,
});
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
process.stdout.write(
  `${JSON.stringify({ code, seconds, maxRssKb: process.resourceUsage().maxRSS, sampledPeakRssKb: Math.round(peak / 1024), report: report.trim() })}\n`,
);
