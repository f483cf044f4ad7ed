import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { systemClock } from '../common/clock.js';
import { databaseOptions, type AppConfig } from '../config.js';
import { createFeedbackModule, type ExportFormat } from '../feedback/feedback.module.js';
import { openDatabase } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrator.js';
import { IMPORT_HELP } from './import-command.js';

/** `searchloop export`: feedback out, oldest first, streamed, from the database or a running service. */
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
    const exchange = createFeedbackModule({ database, clock: systemClock }).services.exchange;
    await pipeline(Readable.from(exchange.export(format, filter)), out);
  } finally {
    await database.close();
  }
  return 0;
}
