import type { Kysely } from 'kysely';
import type { ErasureReport, PersonalDataTable, SessionEraser } from '../common/personal-data.js';
import { ATTRIBUTION_LOCK, transactionLock } from './advisory-locks.js';
import type { DatabaseCapabilities } from './database.js';
import type { Database } from './schema.js';

/**
 * One transaction over the whole personal-data map: either every row of the session goes, or none
 * does (a failure half-way must not leave a partly erased session that looks erased). On
 * PostgreSQL it first waits for the attribution lock, so an attribution run that read the
 * session's feedback before the erasure cannot write experiment rows for it afterwards; SQLite
 * has one writer at a time, which gives the same order.
 */
export function createSessionEraser(
  db: Kysely<Database>,
  capabilities: Pick<DatabaseCapabilities, 'supportsAdvisoryLocks'>,
  tables: readonly PersonalDataTable[],
): SessionEraser {
  return {
    eraseSession: (sessionId) =>
      db.transaction().execute(async (trx) => {
        if (capabilities.supportsAdvisoryLocks) await transactionLock(trx, ATTRIBUTION_LOCK);
        const report: ErasureReport = {};
        const dynamic = trx as unknown as Kysely<Record<string, Record<string, unknown>>>;
        for (const { table, column, kind } of tables) {
          const result = await dynamic.deleteFrom(table).where(column, '=', sessionId).executeTakeFirst();
          report[kind] = (report[kind] ?? 0) + Number(result.numDeletedRows);
        }
        return report;
      }),
  };
}
