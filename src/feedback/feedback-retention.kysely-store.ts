import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../storage/database.js';
import { DAY_MS } from '../common/time.js';
import { FEEDBACK_PARTITIONS_AHEAD_DAYS, partitionDay, partitionDdl } from '../storage/postgres/feedback-partitions.js';
import type { Database } from '../storage/schema.js';
import type { FeedbackRetentionStore, RetentionOutcome } from './feedback-retention.store.js';

/**
 * PostgreSQL (feedback_items partitioned by day since migration 0061): old days are dropped as
 * whole partitions, which costs O(1) instead of a delete of every row. SQLite: small batched deletes.
 */
export class KyselyFeedbackRetentionStore implements FeedbackRetentionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: Pick<DatabaseCapabilities, 'supportsPartitioning'>,
  ) {}

  async ensurePartitions(now: number): Promise<number> {
    if (!this.capabilities.supportsPartitioning) return 0;
    const existing = new Set(await this.partitions());
    let created = 0;
    for (const { name, create } of partitionDdl(now, FEEDBACK_PARTITIONS_AHEAD_DAYS)) {
      if (existing.has(name)) continue;
      try {
        await sql.raw(create).execute(this.db);
        created += 1;
      } catch {
        // Another instance created it first, or the default partition already holds rows of that
        // day (a clock far behind the migration's): those rows stay in the default partition, which
        // retention empties by batches, so skipping the day loses nothing.
      }
    }
    return created;
  }

  async removeReceivedBefore(cutoff: number, batchSize: number): Promise<RetentionOutcome> {
    const partitionsDropped = this.capabilities.supportsPartitioning ? await this.dropDaysBefore(cutoff) : { count: 0, items: 0 };
    const items = await this.inBatches(batchSize, () =>
      this.db
        .deleteFrom('feedback_items')
        .where('id', 'in', (eb) => eb.selectFrom('feedback_items').select('id').where('received_at', '<', cutoff).limit(batchSize))
        .executeTakeFirst(),
    );
    const submissions = await this.inBatches(batchSize, () =>
      this.db
        .deleteFrom('feedback_submissions')
        .where('id', 'in', (eb) => eb.selectFrom('feedback_submissions').select('id').where('received_at', '<', cutoff).limit(batchSize))
        .executeTakeFirst(),
    );
    return { items: items + partitionsDropped.items, submissions, partitionsDropped: partitionsDropped.count };
  }

  /** Drops every daily partition that ends at or before the cutoff; returns how many and their rows. */
  private async dropDaysBefore(cutoff: number): Promise<{ count: number; items: number }> {
    let count = 0;
    let items = 0;
    for (const name of await this.partitions()) {
      const day = partitionDay(name);
      if (day === null || day + DAY_MS > cutoff) continue;
      const dropped = await this.db
        .transaction()
        .execute(async (trx) => {
          // Dropping a partition briefly locks the parent; never queue behind a long read and stall
          // every insert behind us: give up after 2 s and try again at the next run.
          await sql`set local lock_timeout = '2s'`.execute(trx);
          const rows = await sql<{ n: string }>`select count(*) as n from ${sql.table(name)}`.execute(trx);
          await sql`drop table ${sql.table(name)}`.execute(trx);
          return Number(rows.rows[0]?.n ?? 0);
        })
        .catch(() => null);
      if (dropped === null) continue;
      count += 1;
      items += dropped;
    }
    return { count, items };
  }

  private async partitions(): Promise<string[]> {
    const { rows } = await sql<{ name: string }>`
      select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent
      join pg_namespace n on n.oid = p.relnamespace
      where p.relname = 'feedback_items' and n.nspname = current_schema()`.execute(this.db);
    return rows.map((r) => r.name);
  }

  private async inBatches(batchSize: number, deleteBatch: () => Promise<{ numDeletedRows: bigint }>): Promise<number> {
    let total = 0;
    for (;;) {
      const n = Number((await deleteBatch()).numDeletedRows);
      total += n;
      if (n < batchSize) return total;
      // Let queued writes (the group commit) go between batches.
      await yieldToEventLoop();
    }
  }
}
