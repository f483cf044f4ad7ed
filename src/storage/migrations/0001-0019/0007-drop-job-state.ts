import type { Kysely } from 'kysely';

/**
 * job_state (created by 0003 for watermarks of incremental jobs) was never read or written:
 * attribution marks items instead, and jobs keep their state in their own rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_state').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_state')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
