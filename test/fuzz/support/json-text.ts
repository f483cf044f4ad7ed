/**
 * A JSON tree that can say what JSON.stringify cannot: duplicate keys, own `__proto__` keys,
 * numbers written as text (`1e309` parses to Infinity, `-0`), and raw fragments (deep nesting
 * built as text so neither generating nor serializing it recurses).
 */
export class Raw {
  constructor(readonly text: string) {}
}

/** An object as an ordered list of entries: keys may repeat and may be `__proto__`. */
export class Obj {
  constructor(readonly entries: [string, Json][]) {}
}

export type Json = null | boolean | number | string | Raw | Obj | Json[];

/** Converts a plain value (as generated for a valid body) to the tree. */
export function fromJs(value: unknown): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (value instanceof Raw || value instanceof Obj) return value;
  if (Array.isArray(value)) return value.map(fromJs);
  if (typeof value === 'object') {
    return new Obj(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, fromJs(v)]),
    );
  }
  return null;
}

export function clone(value: Json): Json {
  if (Array.isArray(value)) return value.map(clone);
  if (value instanceof Obj) return new Obj(value.entries.map(([k, v]) => [k, clone(v)]));
  return value;
}

function numberText(n: number): string {
  if (Number.isNaN(n)) return 'NaN'; // not JSON: a malformed body on purpose
  if (n === Infinity) return '1e999';
  if (n === -Infinity) return '-1e999';
  if (Object.is(n, -0)) return '-0';
  return JSON.stringify(n);
}

export function toText(value: Json): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'string') return JSON.stringify(value); // lone surrogates come out as \udXXX escapes
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toText).join(',')}]`;
  return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toText(v)}`).join(',')}}`;
}

/** `{"a":{"a":…1…}}` or `[[…1…]]` nested `depth` times, built as text. */
export function deepNest(depth: number, kind: 'object' | 'array' | 'mixed'): Raw {
  if (kind === 'array') return new Raw(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
  if (kind === 'object') return new Raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i += 1) {
    open.push(i % 2 === 0 ? '{"a":' : '[');
    close.push(i % 2 === 0 ? '}' : ']');
  }
  return new Raw(`${open.join('')}1${close.reverse().join('')}`);
}

/** A place in the tree a mutation can act on: an entry of an object or an element of an array. */
export interface Slot {
  container: Obj | Json[];
  index: number;
}

/** Every slot, depth first (the root itself is not a slot; mutations replace it separately). */
export function slots(root: Json): Slot[] {
  const out: Slot[] = [];
  const walk = (node: Json) => {
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        out.push({ container: node, index });
        walk(child);
      });
    } else if (node instanceof Obj) {
      node.entries.forEach(([, child], index) => {
        out.push({ container: node, index });
        walk(child);
      });
    }
  };
  walk(root);
  return out;
}

export function containers(root: Json): (Obj | Json[])[] {
  const out: (Obj | Json[])[] = [];
  const walk = (node: Json) => {
    if (Array.isArray(node)) {
      out.push(node);
      node.forEach(walk);
    } else if (node instanceof Obj) {
      out.push(node);
      node.entries.forEach(([, v]) => walk(v));
    }
  };
  walk(root);
  return out;
}

export function getSlot(slot: Slot): Json {
  return Array.isArray(slot.container) ? (slot.container[slot.index] as Json) : (slot.container.entries[slot.index] as [string, Json])[1];
}

export function setSlot(slot: Slot, value: Json): void {
  if (Array.isArray(slot.container)) slot.container[slot.index] = value;
  else (slot.container.entries[slot.index] as [string, Json])[1] = value;
}
