import { describe, expect, it } from 'vitest';
import { AliasService } from './alias.service.js';
import { FakeAliasStore } from './fake-alias.store.js';

describe('AliasService log lines', () => {
  it('writes one alias.moved line per move, naming from, to, who and why', async () => {
    const store = new FakeAliasStore();
    const lines: [string, Record<string, unknown>, string][] = [];
    const service = new AliasService({
      store,
      // Clearing needs no model lookups; the registry ports are never called here.
      models: { get: async () => undefined },
      versions: { getState: async () => undefined, listVersions: async () => [] },
      clock: { now: () => Date.parse('2026-11-28T12:00:00Z') },
      events: { record: (event, fields, message) => lines.push([event, fields, message]) },
    });
    await store.move(service.change({ alias: 'production', modelId: 'ranker-a', version: 3, actor: 'ann', reason: null, at: 1 }));
    await service.clear('production', { reason: 'incident 42' }, 'bob');
    expect(lines).toEqual([
      [
        'alias.moved',
        { alias: 'production', from: { modelId: 'ranker-a', version: 3 }, to: null, actor: 'bob', experimentId: null },
        'alias "production" moved from v3 of ranker-a to the engine\'s original order by bob: incident 42',
      ],
    ]);
  });
});
