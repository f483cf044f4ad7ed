import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { systemClock } from '../common/clock.js';
import { ImportProgress } from './import-progress.js';
import { databaseOptions, loadImportConfig, type AppConfig, type ImportCommandConfig } from '../config.js';
import {
  LineParser,
  createFeedbackModule,
  exportFeedback,
  splitCsvLine,
  type ExportFormat,
  type ImportBatchReport,
  type ImportFormat,
  startImportPreparer,
} from '../feedback/feedback.module.js';
import { openDatabase } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrator.js';

export const IMPORT_HELP = `searchloop import <file|-> [options]

  Imports feedback from NDJSON (feedback submissions {sessionId, feedback: [...]}, items as
  \`searchloop export --format ndjson\` writes them, or UBI 1.3.0 event and query documents) or CSV
  with a header (sessionId,queryId,queryHash,resultId,position,userAction,timestamp,rating,dwellTime,…;
  other columns go to customMetadata). Timestamps are kept. Re-importing a file stores nothing new.

  --format auto|feedback|ubi|csv   (default auto: CSV when the first line is not JSON)
  --url URL --key KEY              over HTTP (POST /api/cortex/feedback/import), else into DATABASE_URL
  --batch N                        lines per transaction (default 5000; 1000 over HTTP)
  --rejects FILE                   rejected lines with line numbers and reasons (default <file>.rejects.ndjson)
  --restart                        ignore a saved position (<file>.import-state.json) and start from line 1

searchloop export [options]        feedback out, oldest first, streamed
  --format ubi|ndjson|csv  --session ID  --since ISO  --until ISO  --cursor C  -o FILE (default stdout)
  --url URL --key KEY              from a running service instead of DATABASE_URL
`;

interface Line {
  text: string;
  line: number;
  /** Byte offset just after this line: where a resumed import starts. */
  end: number;
}

/** Lines with their byte offsets, in constant memory. */
async function* readLines(input: NodeJS.ReadableStream, startOffset: number, startLine: number): AsyncGenerator<Line> {
  let rest = Buffer.alloc(0);
  let offset = startOffset;
  let line = startLine;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let buffer = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let nl: number;
    while ((nl = buffer.indexOf(10)) >= 0) {
      offset += nl + 1;
      yield { text: buffer.subarray(0, nl).toString('utf8'), line: ++line, end: offset };
      buffer = buffer.subarray(nl + 1);
    }
    rest = Buffer.from(buffer);
  }
  if (rest.length) yield { text: rest.toString('utf8'), line: line + 1, end: offset + rest.length };
}

interface Totals {
  lines: number;
  imported: number;
  duplicates: number;
  rejected: number;
}

interface State {
  size: number;
  mtimeMs: number;
  offset: number;
  line: number;
  csvHeader?: string[];
  totals: Totals;
}

/** Prepares a batch now (CPU) and returns the write to await (I/O), so the next batch is prepared meanwhile. */
type Importer = (lines: Line[], parser: LineParser) => () => Promise<ImportBatchReport>;

async function httpImporter(url: string, key: string | undefined, format: ImportFormat): Promise<Importer> {
  return (lines, parser) => {
    const body = JSON.stringify({
      format,
      ...(parser.csvHeader ? { csvHeader: parser.csvHeader } : {}),
      lines: lines.map((l) => ({ line: l.line, text: l.text })),
    });
    return async () => {
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(`${url.replace(/\/+$/, '')}/api/cortex/feedback/import`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
          body,
        }).catch(() => undefined);
        if (res?.ok) return ((await res.json()) as { data: ImportBatchReport }).data;
        const retryable = !res || res.status === 429 || res.status >= 500;
        if (!retryable || attempt >= 8)
          throw new Error(`import request failed: ${res ? `${res.status} ${await res.text()}` : 'no answer'}`);
        const wait = Number(res?.headers.get('retry-after')) * 1000 || Math.random() * Math.min(30_000, 250 * 2 ** attempt);
        await new Promise((r) => setTimeout(r, wait));
      }
    };
  };
}

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
  const stateFile = fromStdin ? undefined : `${file}.import-state.json`;
  let state: State | undefined;
  if (stateFile && fs.existsSync(stateFile) && !values.restart) {
    const saved = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as State;
    if (saved.size === stat!.size && saved.mtimeMs === stat!.mtimeMs) state = saved;
  }
  const totals: Totals = state?.totals ?? { lines: 0, imported: 0, duplicates: 0, rejected: 0 };
  const rejectsFile = values.rejects ?? (fromStdin ? 'import.rejects.ndjson' : `${file}.rejects.ndjson`);
  if (!state) fs.rmSync(rejectsFile, { force: true });
  if (state) io.err(`import: resuming ${file} at line ${state.line + 1}\n`);

  const parser = new LineParser(format);
  if (state?.csvHeader) parser.useHeader(state.csvHeader);
  let close = async () => undefined as void;
  let importer: Importer;
  if (values.url) importer = await httpImporter(values.url, values.key, format);
  else {
    const cfg = config();
    const database = await openDatabase(cfg.database, databaseOptions(cfg));
    await migrateToLatest(database);
    const feedback = createFeedbackModule({ database, clock: systemClock });
    const service = feedback.services.importService;
    // Parsing and checking run on a worker thread while this one writes the previous batch.
    const preparer = await startImportPreparer(service, format, state?.csvHeader, settings.inline);
    importer = (lines, p) => {
      const prepared = preparer.prepare(lines);
      return async () => {
        const batch = await prepared;
        if (batch.csvHeader && !p.csvHeader) p.useHeader(batch.csvHeader);
        return service.write(batch);
      };
    };
    close = async () => {
      await preparer.close();
      await database.close();
    };
  }

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
    const write = importer(batch, parser);
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
    if (stateFile) {
      const saved: State = {
        size: stat!.size,
        mtimeMs: stat!.mtimeMs,
        offset: last.end,
        line: last.line,
        totals,
        ...(parser.csvHeader ? { csvHeader: parser.csvHeader } : {}),
      };
      // Written whole, then renamed: a kill never leaves half a state file.
      fs.writeFileSync(`${stateFile}.tmp`, JSON.stringify(saved));
      fs.renameSync(`${stateFile}.tmp`, stateFile);
    }
    progress.update(position, totals);
  };
  try {
    for await (const line of readLines(input, state?.offset ?? 0, state?.line ?? 0)) {
      if (values.url && !parser.csvHeader && format !== 'feedback' && format !== 'ubi') {
        // Over HTTP the header travels with every batch: read it here.
        const trimmed = line.text.trim();
        if (trimmed === '') continue;
        if (!trimmed.startsWith('{') && totals.lines === 0 && batch.length === 0) {
          const header = splitCsvLine(line.text.replace(/\r$/, ''));
          if (header) {
            parser.useHeader(header);
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
    await close();
  }
  progress.update(position, totals, true);
  if (stateFile) fs.rmSync(stateFile, { force: true });
  io.out(
    `imported ${totals.imported} items, skipped ${totals.duplicates} duplicates, rejected ${totals.rejected} lines` +
      `${totals.rejected > 0 ? ` (see ${rejectsFile})` : ''}\n`,
  );
  return totals.rejected > 0 ? 1 : 0;
}

export async function runExportCommand(args: string[], config: () => AppConfig, io: { err: (t: string) => void }): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      format: { type: 'string', default: 'ndjson' },
      session: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      cursor: { type: 'string' },
      output: { type: 'string', short: 'o' },
      url: { type: 'string' },
      key: { type: 'string' },
    },
  });
  const format = values.format as ExportFormat;
  if (!['ubi', 'ndjson', 'csv'].includes(format)) {
    io.err(IMPORT_HELP);
    return 2;
  }
  const filter = {
    ...(values.session ? { sessionId: values.session } : {}),
    ...(values.since ? { since: values.since } : {}),
    ...(values.until ? { until: values.until } : {}),
    ...(values.cursor ? { cursor: values.cursor } : {}),
  };
  const out = values.output ? fs.createWriteStream(values.output) : process.stdout;
  if (values.url) {
    const query = new URLSearchParams({ format, ...filter });
    const res = await fetch(`${values.url.replace(/\/+$/, '')}/api/cortex/feedback/export?${query}`, {
      headers: values.key ? { authorization: `Bearer ${values.key}` } : {},
    });
    if (!res.ok || !res.body) {
      io.err(`export failed: ${res.status} ${await res.text()}\n`);
      return 1;
    }
    await pipeline(Readable.fromWeb(res.body as never), out);
    return 0;
  }
  const cfg = config();
  const database = await openDatabase(cfg.database, databaseOptions(cfg));
  try {
    await migrateToLatest(database);
    const feedback = createFeedbackModule({ database, clock: systemClock }).services.feedbackService;
    await pipeline(Readable.from(exportFeedback((q) => feedback.list(q), format, filter)), out);
  } finally {
    await database.close();
  }
  return 0;
}
