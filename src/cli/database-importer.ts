import { systemClock } from '../common/clock.js';
import { databaseOptions, type AppConfig } from '../config.js';
import { createFeedbackModule, type ImportFormat } from '../feedback/feedback.module.js';
import { openDatabase } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrator.js';
import type { Importer } from './importer.js';

/**
 * Batches straight into the configured database (migrated first), through the feedback module's
 * exchange: parsing and checking run on a worker thread while this one writes the previous batch.
 */
export async function openDatabaseImporter(
  config: AppConfig,
  format: ImportFormat,
  options: { csvHeader?: string[]; inline: boolean },
): Promise<Importer> {
  const database = await openDatabase(config.database, databaseOptions(config));
  await migrateToLatest(database);
  const run = await createFeedbackModule({ database, clock: systemClock }).services.exchange.startImport(format, options);
  return {
    prepare: (lines) => run.prepare(lines),
    get csvHeader() {
      return run.csvHeader;
    },
    close: async () => {
      await run.close();
      await database.close();
    },
  };
}
