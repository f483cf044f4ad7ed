import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadImportConfig, type AppConfig, type ImportCommandConfig } from '../config.js';
import { splitCsvLine, type ImportBatchReport, type ImportFormat } from '../feedback/feedback.module.js';
import { openDatabaseImporter } from './database-importer.js';
import { HttpImporter } from './http-importer.js';
import { ImportProgress } from './import-progress.js';
import { ImportStateFile, type ImportTotals } from './import-state.js';
import type { Importer } from './importer.js';
import { readLines, type Line } from './line-reader.js';

export const IMPORT_HELP = `searchloop import <file|-> [options]

  Imports feedback from NDJSON (feedback submissions {sessionId, feedback: [...]}, items as
  \`searchloop export --format ndjson\` writes them, or UBI 1.3.0 event and query documents) or CSV
  with a header (sessionId,queryId,queryHash,resultId,position,userAction,timestamp,rating,dwellTime,…;
  other columns go to customMetadata). Timestamps are kept. Re-importing a file stores nothing new.

  --format auto|feedback|ubi|csv   (default auto: CSV when the first line is not JSON)
  --url URL --key KEY              over HTTP (POST /api/cortex/feedback/import), else into DATABASE_URL
  --batch N                        lines per transaction (default 5000; 1000 over HTTP)
  --rejects FILE                   rejected lines with line numbers and reasons (default <file>.rejects.ndjson);
                                   over HTTP also a line too large for one request to the service
  --restart                        ignore a saved position (<file>.import-state.json) and start from line 1
  Environment: SEARCHLOOP_PROGRESS_MS  least ms between progress redraws (default 200 on a terminal, else 5000)
               SEARCHLOOP_IMPORT_INLINE=1  parse on the importing thread instead of a worker thread

searchloop export [options]        feedback out, oldest first, streamed
  --format ubi|ndjson|csv  --session ID  --since ISO  --until ISO  --cursor C  -o FILE (default stdout)
  --url URL --key KEY              from a running service instead of DATABASE_URL
`;

/** `searchloop import`: a file (or stdin) in batches, resumable after a kill, with a progress line. */
export async function runImportCommand(
  args: string[],
  config: () => AppConfig,
  io: { out: (t: string) => void; err: (t: string) => void; tty: boolean; columns?: number },
  settings: ImportCommandConfig = loadImportConfig(),
): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'auto' },
      url: { type: 'string' },
      key: { type: 'string' },
      batch: { type: 'string' },
      rejects: { type: 'string' },
      restart: { type: 'boolean', default: false },
    },
  });
  const file = positionals[0];
  const format = values.format as ImportFormat;
  if (!file || !['auto', 'feedback', 'ubi', 'csv'].includes(format)) {
    io.err(IMPORT_HELP);
    return 2;
  }
  const batchSize = Math.max(1, Math.min(values.url ? 5000 : 50_000, Number(values.batch ?? (values.url ? 1000 : 5000)) || 1000));
  const fromStdin = file === '-';
  const stat = fromStdin ? undefined : fs.statSync(file);
  const stateFile = fromStdin ? undefined : new ImportStateFile(file);
  const state = stateFile && !values.restart ? stateFile.load(stat!) : undefined;
  const totals: ImportTotals = state?.totals ?? { lines: 0, imported: 0, duplicates: 0, rejected: 0 };
  const rejectsFile = values.rejects ?? (fromStdin ? 'import.rejects.ndjson' : `${file}.rejects.ndjson`);
  if (!state) fs.rmSync(rejectsFile, { force: true });
  if (state) io.err(`import: resuming ${file} at line ${state.line + 1}\n`);

  const http = values.url ? new HttpImporter(values.url, values.key, format, state?.csvHeader) : undefined;
  const importer: Importer =
    http ??
    (await openDatabaseImporter(config(), format, {
      ...(state?.csvHeader ? { csvHeader: state.csvHeader } : {}),
      inline: settings.inline,
    }));

  const input = fromStdin ? process.stdin : fs.createReadStream(file, { start: state?.offset ?? 0, highWaterMark: 1 << 20 });
  const intervalMs = settings.progressIntervalMs;
  const progress = new ImportProgress(
    stat?.size,
    { isTTY: io.tty, ...(io.columns ? { columns: io.columns } : {}), write: io.err },
    intervalMs === undefined ? {} : { intervalMs },
  );
  let batch: Line[] = [];
  let position = state?.offset ?? 0;
  // One batch is written while the next is read and prepared; its position is saved once committed.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (batch.length === 0) return;
    const write = importer.prepare(batch);
    const last = batch.at(-1)!;
    batch = [];
    await writing;
    writing = write().then((report) => record(report, last));
    // Handled when awaited (next batch or the end); marked now so Node does not call it unhandled meanwhile.
    writing.catch(() => undefined);
  };
  const record = (report: ImportBatchReport, last: Line) => {
    totals.lines += report.lines;
    totals.imported += report.imported;
    totals.duplicates += report.duplicates;
    totals.rejected += report.rejected.length;
    if (report.rejected.length > 0) {
      fs.appendFileSync(rejectsFile, report.rejected.map((r) => `${JSON.stringify(r)}\n`).join(''));
    }
    position = last.end;
    stateFile?.save({
      size: stat!.size,
      mtimeMs: stat!.mtimeMs,
      offset: last.end,
      line: last.line,
      totals,
      ...(importer.csvHeader ? { csvHeader: importer.csvHeader } : {}),
    });
    progress.update(position, totals);
  };
  try {
    for await (const line of readLines(input, state?.offset ?? 0, state?.line ?? 0)) {
      if (http && !http.csvHeader && format !== 'feedback' && format !== 'ubi') {
        // Over HTTP the header travels with every batch: read it here.
        const trimmed = line.text.trim();
        if (trimmed === '') continue;
        if (!trimmed.startsWith('{') && totals.lines === 0 && batch.length === 0) {
          const header = splitCsvLine(line.text.replace(/\r$/, ''));
          if (header) {
            http.useHeader(header);
            continue;
          }
        }
      }
      batch.push(line);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    await writing;
  } finally {
    await writing.catch(() => undefined);
    await importer.close();
  }
  progress.update(position, totals, true);
  stateFile?.remove();
  io.out(
    `imported ${totals.imported} items, skipped ${totals.duplicates} duplicates, rejected ${totals.rejected} lines` +
      `${totals.rejected > 0 ? ` (see ${rejectsFile})` : ''}\n`,
  );
  return totals.rejected > 0 ? 1 : 0;
}
