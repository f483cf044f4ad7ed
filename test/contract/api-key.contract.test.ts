import { expect, it } from 'vitest';
import { KyselyApiKeyStore } from '../../src/auth/api-key.kysely-store.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../src/auth/api-key.store.js';
import { FakeApiKeyStore } from '../../src/auth/fake-api-key.store.js';
import { describeContract } from './support/contract.js';

const key = (name: string, createdAt: number, over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: `id-${name}`,
  name,
  scope: 'read',
  keyHash: `hash-${name}`,
  prefix: `sl_read_${name}`.slice(0, 12),
  createdAt,
  revokedAt: null,
  ...over,
});

describeContract<ApiKeyStore>(
  'ApiKeyStore',
  { kysely: (database) => new KyselyApiKeyStore(database.db), fake: () => new FakeApiKeyStore() },
  (store) => {
    it('stores keys and lists them oldest first', async () => {
      expect(await store().insert(key('b', 2000, { scope: 'admin' }))).toBe('inserted');
      expect(await store().insert(key('a', 1000))).toBe('inserted');
      expect(await store().list()).toEqual([key('a', 1000), key('b', 2000, { scope: 'admin' })]);
    });

    it('refuses a taken name or key hash, writing nothing', async () => {
      await store().insert(key('a', 1000));
      expect(await store().insert(key('a', 2000, { id: 'other', keyHash: 'other' }))).toBe('duplicate');
      expect(await store().insert(key('b', 2000, { keyHash: 'hash-a' }))).toBe('duplicate');
      expect((await store().list()).map((k) => k.name)).toEqual(['a']);
    });

    it('revokes by name or id, once; revoked keys leave the active list', async () => {
      await store().insert(key('a', 1000));
      await store().insert(key('b', 2000));
      expect(await store().revoke('a', 5000)).toBe(true);
      expect(await store().revoke('id-b', 6000)).toBe(true);
      expect(await store().revoke('a', 7000)).toBe(false);
      expect(await store().revoke('nobody', 7000)).toBe(false);
      expect(await store().listActive()).toEqual([]);
      expect((await store().list()).map((k) => [k.name, k.revokedAt])).toEqual([
        ['a', 5000],
        ['b', 6000],
      ]);
    });

    it('lists only active keys for authentication', async () => {
      await store().insert(key('a', 1000));
      await store().insert(key('b', 2000, { revokedAt: 1500 }));
      expect((await store().listActive()).map((k) => k.name)).toEqual(['a']);
    });
  },
);
