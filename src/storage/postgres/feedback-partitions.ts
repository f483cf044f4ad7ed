/**
 * PostgreSQL's daily partitions of `feedback_items` (by `received_at`, UTC days), for the retention
 * store that keeps partitions ahead of the clock and drops old ones; plain strings, no database
 * access. Migration 0061, which created the partitioned table, keeps its own frozen copy.
 */
import { DAY_MS } from '../../common/time.js';

/** Partitions exist for today and this many days ahead, so inserts never land in the default one. */
export const FEEDBACK_PARTITIONS_AHEAD_DAYS = 7;

const PREFIX = 'feedback_items_p';

export function partitionName(dayStart: number): string {
  return `${PREFIX}${new Date(dayStart).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** The day a partition covers, from its name; null for the default partition or a foreign table. */
export function partitionDay(name: string): number | null {
  const m = /^feedback_items_p(\d{4})(\d{2})(\d{2})$/.exec(name);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

/** DDL for the partitions of the day holding `now` and the `ahead` days after it. */
export function partitionDdl(now: number, ahead: number): { name: string; create: string }[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return Array.from({ length: ahead + 1 }, (_, i) => {
    const from = today + i * DAY_MS;
    const name = partitionName(from);
    return {
      name,
      create: `create table if not exists ${name} partition of feedback_items for values from (${from}) to (${from + DAY_MS})`,
    };
  });
}
