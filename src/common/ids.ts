import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

// ulid's default generator asks the kernel for one random byte per character (16 calls per id):
// 4.8 % of the event loop under single-item ingestion (issue 28's profile). The same bytes from a
// pool refilled 4 KiB at a time: one call per 256 ids, still the CSPRNG's output.
const pool = new Uint8Array(4096);
let next = pool.length;
function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  // A byte / 256 is in [0, 1); ulid takes floor(x · 32): each character is five of its bits, uniform.
  return pool[next++]! / 256;
}

/** ULIDs sort by creation time, so they double as the pagination key. */
export const newId: () => string = monotonicFactory(pooledRandom);
