import { Type } from 'typebox';

/** A string limited to `values`, as a plain JSON Schema enum (readable in OpenAPI and errors). */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}
