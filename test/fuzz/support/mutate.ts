import fc from 'fast-check';
import { clone, containers, fromJs, getSlot, Obj, setSlot, slots, type Json } from './json-text.js';
import { hostileKey, hostileValue } from './hostile.js';

/**
 * One change to a valid-looking body. `at` picks a slot or container modulo how many there
 * are, so every mutation applies to any body and shrinks towards the first field.
 */
export type Mutation =
  | { kind: 'replace'; at: number; value: Json }
  | { kind: 'replaceRoot'; value: Json }
  | { kind: 'drop'; at: number }
  | { kind: 'duplicate'; at: number; value: Json }
  | { kind: 'rename'; at: number; key: string }
  | { kind: 'add'; at: number; key: string; value: Json }
  | { kind: 'wrapInArray'; at: number }
  | { kind: 'grow'; at: number; length: number };

const at = fc.nat({ max: 1_000 });

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('replace' as const), at, value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replaceRoot' as const), value: hostileValue }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('drop' as const), at }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), at, value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rename' as const), at, key: hostileKey }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), at, key: hostileKey, value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wrapInArray' as const), at }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('grow' as const), at, length: fc.constantFrom(3, 21, 51, 201, 513, 1_001, 2_500) }),
  },
);

function applyOne(root: Json, original: Mutation): Json {
  // Values are cloned on insertion: fast-check may hand the same instance to two mutations, and an
  // 'add' into a value already inserted elsewhere would otherwise make the tree cyclic (endless toText).
  const m = 'value' in original ? ({ ...original, value: clone(original.value as Json) } as Mutation) : original;
  if (m.kind === 'replaceRoot') return m.value;
  const all = slots(root);
  if (m.kind === 'add') {
    const objects = containers(root).filter((c): c is Obj => c instanceof Obj);
    const target = objects[m.at % Math.max(objects.length, 1)];
    target?.entries.push([m.key, m.value]);
    return root;
  }
  if (m.kind === 'grow') {
    const arrays = containers(root).filter((c): c is Json[] => Array.isArray(c));
    const target = arrays[m.at % Math.max(arrays.length, 1)];
    if (target) {
      const model = target[0] ?? null;
      // Copies share structure: harmless, the tree is only serialized afterwards.
      while (target.length < m.length) target.push(model);
    }
    return root;
  }
  const slot = all[m.at % Math.max(all.length, 1)];
  if (!slot) return m.kind === 'replace' ? m.value : root;
  switch (m.kind) {
    case 'replace':
      setSlot(slot, m.value);
      break;
    case 'drop':
      if (Array.isArray(slot.container)) slot.container.splice(slot.index, 1);
      else slot.container.entries.splice(slot.index, 1);
      break;
    case 'duplicate':
      if (Array.isArray(slot.container)) slot.container.push(clone(getSlot(slot)));
      else slot.container.entries.push([(slot.container.entries[slot.index] as [string, Json])[0], m.value]);
      break;
    case 'rename':
      if (slot.container instanceof Obj) (slot.container.entries[slot.index] as [string, Json])[0] = m.key;
      break;
    case 'wrapInArray':
      setSlot(slot, [getSlot(slot)]);
      break;
  }
  return root;
}

export function applyMutations(valid: unknown, mutations: readonly Mutation[]): Json {
  let root = clone(fromJs(valid));
  for (const m of mutations) root = applyOne(root, m);
  return root;
}
