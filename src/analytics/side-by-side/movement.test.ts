import { describe, expect, it } from 'vitest';
import { movements, relevanceDcg } from './movement.js';
import { parseRankerSpec } from './ranker-spec.js';

describe('side-by-side movement', () => {
  it('reads each top-k result against the other full order: up, down, same, new', () => {
    const engine = ['a', 'b', 'c', 'd', 'e'];
    const model = ['c', 'a', 'e', 'b', 'd'];
    // k = 3: c climbs from 3 to 1, a falls from 1 to 2, e comes from 5 (outside the engine's top 3).
    expect(movements(model, engine, 3)).toEqual([
      { kind: 'up', by: 2, otherRank: 3 },
      { kind: 'down', by: 1, otherRank: 1 },
      { kind: 'new', by: 0, otherRank: 5 },
    ]);
    expect(movements(engine, model, 3)).toEqual([
      { kind: 'up', by: 1, otherRank: 2 },
      { kind: 'new', by: 0, otherRank: 4 },
      { kind: 'down', by: 2, otherRank: 1 },
    ]);
    expect(movements(engine, engine, 2).map((m) => m.kind)).toEqual(['same', 'same']);
    expect(() => movements(['x'], engine, 1)).toThrow(/missing/);
  });

  it('weighs relevance by 1 / log2(rank + 1), unjudged results gaining nothing', () => {
    expect(relevanceDcg([1, null, 0.5])).toBeCloseTo(1 + 0 + 0.5 / 2, 12);
    expect(relevanceDcg([])).toBe(0);
  });

  it('parses original, alias:<name> and model:<id>[@version], refusing anything else', () => {
    expect(parseRankerSpec('original')).toEqual({ kind: 'original' });
    expect(parseRankerSpec('alias:production')).toEqual({ kind: 'alias', alias: 'production' });
    expect(parseRankerSpec('model:ranker-a')).toEqual({ kind: 'model', modelId: 'ranker-a' });
    expect(parseRankerSpec('model:ranker.a@12')).toEqual({ kind: 'model', modelId: 'ranker.a', version: 12 });
    for (const bad of ['', 'engine', 'alias:Prod', 'model:', 'model:a@0', 'model:a@x', 'alias:', 'original '])
      expect(parseRankerSpec(bad)).toBeNull();
  });
});
