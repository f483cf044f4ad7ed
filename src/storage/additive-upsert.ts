import { sql, type RawBuilder } from 'kysely';

/**
 * The SET of an `ON CONFLICT … DO UPDATE` for rows that accumulate (sums, counters): each column
 * becomes `table.column + excluded.column`, so a batch adds to what earlier batches stored. One
 * definition for attribution's variant and slice sums and analytics' hourly counters.
 */
export function addExcluded(table: string, columns: readonly string[]): Record<string, RawBuilder<unknown>> {
  return Object.fromEntries(columns.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`]));
}
