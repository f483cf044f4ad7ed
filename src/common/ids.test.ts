import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

describe('newId', () => {
  it('is a ULID, unique and in creation order, within a millisecond and across milliseconds', async () => {
    const ids: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      for (let i = 0; i < 2000; i += 1) ids.push(newId());
      await new Promise((r) => setTimeout(r, 2));
    }
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws the random part evenly over the 32 characters (the pooled bytes are not biased)', async () => {
    // One id per millisecond, each with a fresh random part; its first ten characters are never
    // touched by the within-millisecond increment.
    const counts = new Map<string, number>();
    for (let i = 0; i < 300; i += 1) {
      for (const c of newId().slice(10, 20)) counts.set(c, (counts.get(c) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(counts.size).toBe(32);
    // 3 000 characters, about 94 of each: a gross bias (a character never, or half as often) fails.
    for (const n of counts.values()) expect(n).toBeGreaterThan(45);
  });
});
