import pg from 'pg';
import type { TestProject } from 'vitest/node';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
  }
}

/**
 * Probes PostgreSQL once for the whole run. Unreachable: the PostgreSQL half is skipped with
 * a loud warning, or, with REQUIRE_POSTGRES=1 (as .ci/run sets), the run fails.
 */
export default async function setup(project: TestProject): Promise<void> {
  const url = process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    project.provide('postgresUrl', url);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.REQUIRE_POSTGRES === '1') {
      throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${url} is unreachable: ${reason}`, { cause: error });
    }
    const bar = '!'.repeat(78);
    process.stderr.write(
      `\n${bar}\n!! PostgreSQL at ${url} is unreachable (${reason}).\n!! SKIPPING every PostgreSQL test: only SQLite was tested.\n!! Set TEST_DATABASE_URL or start PostgreSQL; REQUIRE_POSTGRES=1 makes this an error.\n${bar}\n\n`,
    );
    project.provide('postgresUrl', null);
  } finally {
    await client.end().catch(() => undefined);
  }
}
