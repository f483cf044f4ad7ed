/**
 * One `searchloop import` in its own process, from the compiled code, for bench/import/run.ts: prints one JSON line with
 * the time of the command, its peak RSS (process.resourceUsage().maxRSS, and RSS sampled every
 * 100 ms, and at 10/25/50/75/100 % of the run's time) and its end report. Arguments: the import's arguments; database from the environment.
 */
// The compiled command (dist/, `npm run build:server`), as `searchloop import` runs for a user: no
// TypeScript loader on the main thread or in the import's worker.
const { runImportCommand } = (await import(
  new URL('../../dist/cli/import-command.js', import.meta.url).href
)) as typeof import('../../src/cli/import-command.js');
const { loadConfig } = (await import(new URL('../../dist/config.js', import.meta.url).href)) as typeof import('../../src/config.js');

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
// RSS once a second, to show whether memory grows with the part of the file read.
const timeline: number[] = [];
const everySecond = setInterval(() => timeline.push(Math.round(process.memoryUsage().rss / 1024)), 1000);
let report = '';
const started = performance.now();
const code = await runImportCommand(process.argv.slice(2), () => loadConfig(process.env), {
  out: (t) => void (report += t),
  err: () => undefined,
  tty: false,
});
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
clearInterval(everySecond);
/** RSS (KiB) at 10 %, 25 %, 50 %, 75 % and 100 % of the run's time. */
const at = [0.1, 0.25, 0.5, 0.75, 1].map(
  (f) => timeline[Math.min(timeline.length - 1, Math.max(0, Math.round(f * timeline.length) - 1))] ?? 0,
);
peak = Math.max(peak, process.memoryUsage().rss);
process.stdout.write(
  `${JSON.stringify({ code, seconds, maxRssKb: process.resourceUsage().maxRSS, sampledPeakRssKb: Math.round(peak / 1024), rssTimelineKb: at, report: report.trim() })}\n`,
);
