import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import type { ApiScope, Authenticator, Principal } from '../common/scopes.js';
import { ConflictError, NotFoundError } from '../common/errors.js';
import type { ApiKeyRecord, ApiKeyStore } from './api-key.store.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * API keys: created once (the plain key is returned only then), stored as SHA-256 hashes,
 * checked against an in-memory cache that reloads after local changes and every few seconds
 * (so a key revoked on another instance stops working within that interval).
 */
export class ApiKeyService implements Authenticator {
  private byHash = new Map<string, Principal>();
  private readonly envKeys: { hash: Buffer; principal: Principal }[];

  constructor(
    private readonly store: ApiKeyStore,
    private readonly clock: Clock,
    envKeys: { key: string; scope: ApiScope }[] = [],
  ) {
    this.envKeys = envKeys.map(({ key, scope }) => ({ hash: sha256(key), principal: { name: `env:${key.slice(0, 6)}…`, scope } }));
  }

  /** True when any key exists: then every non-public route needs one. */
  get secured(): boolean {
    return this.envKeys.length > 0 || this.byHash.size > 0;
  }

  async refresh(): Promise<void> {
    const active = await this.store.listActive();
    this.byHash = new Map(active.map((k) => [k.keyHash, { name: k.name, scope: k.scope }]));
  }

  authenticate(presented: string): Principal | undefined {
    const hash = sha256(presented);
    // Environment keys: compare digests in constant time, all of them, whatever matches first.
    let found: Principal | undefined;
    for (const k of this.envKeys) if (timingSafeEqual(k.hash, hash)) found = k.principal;
    // Database keys: looked up by their digest, which reveals nothing about the key's characters.
    return found ?? this.byHash.get(hash.toString('hex'));
  }

  async create(name: string, scope: ApiScope): Promise<{ key: string; record: Omit<ApiKeyRecord, 'keyHash'> }> {
    const key = `sl_${scope}_${randomBytes(24).toString('base64url')}`;
    const record: ApiKeyRecord = {
      id: newId(),
      name,
      scope,
      keyHash: sha256(key).toString('hex'),
      prefix: key.slice(0, 12),
      createdAt: this.clock.now(),
      revokedAt: null,
    };
    if ((await this.store.insert(record)) === 'duplicate') throw new ConflictError(`an API key named "${name}" already exists`);
    await this.refresh();
    const { keyHash: _hash, ...visible } = record;
    return { key, record: visible };
  }

  async list(): Promise<Omit<ApiKeyRecord, 'keyHash'>[]> {
    return (await this.store.list()).map(({ keyHash: _hash, ...visible }) => visible);
  }

  async revoke(nameOrId: string): Promise<void> {
    if (!(await this.store.revoke(nameOrId, this.clock.now()))) throw new NotFoundError(`no active API key "${nameOrId}"`);
    await this.refresh();
  }
}
