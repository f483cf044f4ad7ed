import { Type, type TProperties, type TSchema } from 'typebox';

/**
 * Every list endpoint pages the same way (common/pagination.ts): a query of its own filters plus
 * `limit` and an opaque `cursor`, and a response of `{items, nextCursor}`. Written once here.
 */
export function PageQuery<P extends TProperties>(filters: P, limit: { max: number; default: number }) {
  return Type.Object(
    {
      ...filters,
      limit: Type.Integer({ minimum: 1, maximum: limit.max, default: limit.default }),
      cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of the previous page.' })),
    },
    { additionalProperties: false },
  );
}

export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' }),
  });
}
