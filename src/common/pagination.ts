import { ValidationError } from './errors.js';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Cursors are opaque to clients: base64url of the last row's key. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ k: lastId }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const key = (parsed as { k?: unknown }).k;
    // Keys are ids and numbers: control characters (NUL, which PostgreSQL text refuses) never occur.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    if (typeof key === 'string' && key.length > 0 && key.length <= 128 && !/[\u0000-\u001f]/.test(key)) return key;
  } catch {
    // fall through to the error below
  }
  throw ValidationError.field('/cursor', 'is not a cursor this service issued', 'querystring');
}

/** Stores fetch limit + 1 rows; the extra row only says whether another page exists. */
export function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}

/** Position in a newest-first listing ordered by (createdAt desc, id desc). */
export interface NewestFirstKey {
  createdAt: number;
  id: string;
}

export function keyOfNewestFirst(row: { createdAt: number; id: string }): string {
  return `${row.createdAt}.${row.id}`;
}

export function decodeNewestFirstCursor(cursor: string | undefined): NewestFirstKey | undefined {
  const key = decodeCursor(cursor);
  if (key === undefined) return undefined;
  const dot = key.indexOf('.');
  const createdAt = Number(key.slice(0, dot));
  if (dot <= 0 || !Number.isSafeInteger(createdAt)) {
    throw new ValidationError('/cursor: is not a cursor this service issued', [
      { path: '/cursor', message: 'is not a cursor this service issued', in: 'querystring' },
    ]);
  }
  return { createdAt, id: key.slice(dot + 1) };
}

/** The in-memory twin of the stores' newest-first keyset query, for fake stores. */
export function pageNewestFirst<T extends { createdAt: number; id: string }>(
  rows: Iterable<T>,
  after: NewestFirstKey | undefined,
  limit: number,
): T[] {
  return [...rows]
    .filter((r) => !after || r.createdAt < after.createdAt || (r.createdAt === after.createdAt && r.id < after.id))
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
    .slice(0, limit);
}
