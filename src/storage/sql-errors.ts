/** True when a write failed on a unique or primary-key constraint, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when the database itself is out of reach (connection refused, dropped, pool or statement timeout). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const err = error as { code?: unknown; message?: unknown } | undefined;
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = typeof err?.message === 'string' ? err.message : '';
  return (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      '57P01',
      '57P02',
      '57P03',
      '08006',
      '08001',
      '08003',
      'SQLITE_BUSY',
      'SQLITE_FULL',
      'SQLITE_READONLY',
      'SQLITE_IOERR',
      'SQLITE_CANTOPEN',
    ].includes(code) ||
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_READONLY') ||
    // pg's own words for a pool wait running out, a dropped connection, a client left unusable by
    // one, and DATABASE_STATEMENT_TIMEOUT_MS passing with no answer from the server.
    /timeout exceeded when trying to connect|Connection terminated|is not queryable|Query read timeout/i.test(message)
  );
}
