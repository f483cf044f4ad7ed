import type { ApiKeyRecord, ApiKeyStore } from './api-key.store.js';

/** In-memory ApiKeyStore for service unit tests; test/contract holds it to the Kysely store. */
export class FakeApiKeyStore implements ApiKeyStore {
  readonly keys: ApiKeyRecord[] = [];

  async insert(k: ApiKeyRecord) {
    // Names and key hashes are unique, as in api_keys.
    if (this.keys.some((x) => x.name === k.name || x.keyHash === k.keyHash || x.id === k.id)) return 'duplicate' as const;
    this.keys.push({ ...k });
    return 'inserted' as const;
  }

  async list() {
    return [...this.keys].sort((a, b) => a.createdAt - b.createdAt).map((k) => ({ ...k }));
  }

  async listActive() {
    return this.keys.filter((k) => k.revokedAt === null).map((k) => ({ ...k }));
  }

  async revoke(nameOrId: string, at: number) {
    const key = this.keys.find((k) => (k.name === nameOrId || k.id === nameOrId) && k.revokedAt === null);
    if (key) key.revokedAt = at;
    return Boolean(key);
  }
}
