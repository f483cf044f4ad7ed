import { sql, type Transaction } from 'kysely';
import type { Database } from './schema.js';

// Arbitrary constants naming this service's PostgreSQL advisory locks. Advisory locks are
// server-wide, so the schema is every lock's second key: deployments (and test files) in other
// schemas of the same server never wait for each other.

/** Attribution folds feedback into experiment tables; erasure waits for it so nothing is re-created. */
export const ATTRIBUTION_LOCK = 774_201_001;

/** Analytics folds feedback into its aggregates and prunes old entity states: one instance at a time. */
export const ANALYTICS_LOCK = 774_201_012;

/** Takes the lock for this transaction if it is free; false when another instance holds it. */
export async function tryTransactionLock(trx: Transaction<Database>, key: number): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${key}, hashtext(current_schema())) as locked`.execute(
    trx,
  );
  return rows[0]?.locked === true;
}

/** Waits for the lock and holds it until the transaction ends. */
export async function transactionLock(trx: Transaction<Database>, key: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${key}, hashtext(current_schema()))`.execute(trx);
}
