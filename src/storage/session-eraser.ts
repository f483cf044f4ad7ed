import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
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
        // Rows found through the session's feedback go first, while that feedback still exists.
        const ordered = [...tables.filter((t) => t.viaFeedback), ...tables.filter((t) => !t.viaFeedback)];
        for (const t of ordered) {
          const result = await dynamic.deleteFrom(t.table).where(condition(t, sessionId)).executeTakeFirst();
          report[t.kind] = (report[t.kind] ?? 0) + Number(result.numDeletedRows);
        }
        return report;
      }),
  };
}

/** The WHERE condition selecting a session's rows of one table (plain SQL: the same on both databases). */
function condition(t: PersonalDataTable, sessionId: string): Expression<SqlBool> {
  const column = sql.ref(t.column);
  if (t.viaFeedback) {
    return sql<SqlBool>`${column} in (select ${t.viaFeedback.prefix} || ${sql.ref(t.viaFeedback.column)} from feedback_items where session_id = ${sessionId})`;
  }
  if (!t.key) return sql<SqlBool>`${column} = ${sessionId}`;
  if (!t.key.startsWith) return sql<SqlBool>`${column} = ${t.key.prefix + sessionId}`;
  // substr, not LIKE: exact and case-sensitive on both databases, whatever characters the id holds.
  const start = t.key.prefix + sessionId + (t.key.separator ?? '');
  return sql<SqlBool>`substr(${column}, 1, ${start.length}) = ${start}`;
}
