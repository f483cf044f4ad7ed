import { expect, it } from 'vitest';
import { KyselyAliasStore } from '../../src/learning/aliases/alias.kysely-store.js';
import type { AliasChange, AliasStore } from '../../src/learning/aliases/alias.store.js';
import { FakeAliasStore } from '../../src/learning/aliases/fake-alias.store.js';
import { describeContract } from './support/contract.js';

const change = (
  id: string,
  alias: string,
  modelId: string | null,
  version: number | null,
  at: number,
  experimentId: string | null = null,
): AliasChange => ({
  record: { alias, modelId, version, updatedAt: at, updatedBy: 'ann', reason: `why ${id}`, experimentId },
  event: { id, alias, at, actor: 'ann', to: modelId === null ? null : { modelId, version }, reason: `why ${id}`, experimentId },
});

describeContract<AliasStore>(
  'AliasStore',
  { kysely: (database) => new KyselyAliasStore(database.db), fake: () => new FakeAliasStore() },
  (store) => {
    it('creates an alias, moves it, and keeps every move with where it came from', async () => {
      expect(await store().get('production')).toBeUndefined();
      const first = await store().move(change('01A', 'production', 'r1', null, 1000));
      expect(first.from).toBeNull();
      const second = await store().move(change('01B', 'production', 'r2', 3, 2000, 'exp1'));
      expect(second).toEqual({
        id: '01B',
        alias: 'production',
        at: 2000,
        actor: 'ann',
        from: { modelId: 'r1', version: null },
        to: { modelId: 'r2', version: 3 },
        reason: 'why 01B',
        experimentId: 'exp1',
      });
      expect(await store().get('production')).toEqual({
        alias: 'production',
        modelId: 'r2',
        version: 3,
        updatedAt: 2000,
        updatedBy: 'ann',
        reason: 'why 01B',
        experimentId: 'exp1',
      });
      const events = await store().listEvents('production', undefined, 10);
      expect(events.map((e) => [e.id, e.from?.modelId ?? null, e.to?.modelId ?? null])).toEqual([
        ['01A', null, 'r1'],
        ['01B', 'r1', 'r2'],
      ]);
      expect((await store().listEvents('production', '01A', 10)).map((e) => e.id)).toEqual(['01B']);
      expect(await store().listEvents('staging', undefined, 10)).toEqual([]);
    });

    it('clears an alias to the original order and moves it again, the history saying so both times', async () => {
      await store().move(change('01A', 'production', 'r1', 2, 1000));
      const cleared = await store().move(change('01B', 'production', null, null, 2000));
      expect(cleared.from).toEqual({ modelId: 'r1', version: 2 });
      expect(cleared.to).toBeNull();
      expect(await store().get('production')).toEqual({
        alias: 'production',
        modelId: null,
        version: null,
        updatedAt: 2000,
        updatedBy: 'ann',
        reason: 'why 01B',
        experimentId: null,
      });
      const again = await store().move(change('01C', 'production', 'r2', null, 3000));
      expect(again.from).toBeNull();
      const events = await store().listEvents('production', undefined, 10);
      expect(events.map((e) => [e.from?.modelId ?? null, e.to?.modelId ?? null])).toEqual([
        [null, 'r1'],
        ['r1', null],
        [null, 'r2'],
      ]);
    });

    it('lists aliases alphabetically after a cursor', async () => {
      for (const [i, a] of ['staging', 'canary', 'production'].entries()) await store().move(change(`0${i}`, a, 'r1', 1, 1000));
      expect((await store().list(undefined, 10)).map((a) => a.alias)).toEqual(['canary', 'production', 'staging']);
      expect((await store().list('canary', 1)).map((a) => a.alias)).toEqual(['production']);
    });
  },
);
