import pg from 'pg';

/** The PostgreSQL every bench measures on (BENCH_PG_URL); the default is the tests' database. */
export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs one administrative statement (create or drop a schema) on a connection of its own. */
export async function pgAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Each PostgreSQL case runs in a schema of its own, dropped after it. */
export const createPgSchema = (schema: string) => pgAdmin(`create schema "${schema}"`);
export const dropPgSchema = (schema: string) => pgAdmin(`drop schema if exists "${schema}" cascade`);

/** The databases a bench runs on: DATABASES=a,b from the environment, else `defaults`. */
export function databasesToRun(defaults: string): string[] {
  return (process.env.DATABASES ?? defaults).split(',');
}
