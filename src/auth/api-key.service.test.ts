import { describe, expect, it } from 'vitest';
import { AppError } from '../common/errors.js';
import { ApiKeyService } from './api-key.service.js';
import { FakeApiKeyStore } from './fake-api-key.store.js';

const clock = { now: () => Date.parse('2026-11-22T12:00:00Z') };

describe('ApiKeyService (fake store)', () => {
  it('creates a key that authenticates with its scope; only its hash and prefix are stored', async () => {
    const store = new FakeApiKeyStore();
    const service = new ApiKeyService(store, clock);
    expect(service.secured).toBe(false);
    const { key, record } = await service.create('storefront', 'ingest');
    expect(key).toMatch(/^sl_ingest_[A-Za-z0-9_-]{32}$/);
    expect(record).not.toHaveProperty('keyHash');
    expect(store.keys[0]).toMatchObject({ name: 'storefront', prefix: key.slice(0, 12) });
    expect(JSON.stringify(store.keys)).not.toContain(key);
    expect(service.secured).toBe(true);
    expect(service.authenticate(key)).toEqual({ name: 'storefront', scope: 'ingest' });
    expect(service.authenticate(`${key}x`)).toBeUndefined();
  });

  it('refuses a second key of one name, and revokes by name (other instances: at their next refresh)', async () => {
    const store = new FakeApiKeyStore();
    const service = new ApiKeyService(store, clock);
    const other = new ApiKeyService(store, clock);
    const { key } = await service.create('ops', 'admin');
    await other.refresh();
    await expect(service.create('ops', 'read')).rejects.toMatchObject({ code: 'CONFLICT' });
    await service.revoke('ops');
    expect(service.authenticate(key)).toBeUndefined();
    expect(other.authenticate(key)).toBeDefined();
    await other.refresh();
    expect(other.authenticate(key)).toBeUndefined();
    await expect(service.revoke('ops')).rejects.toBeInstanceOf(AppError);
  });

  it('accepts keys from the environment, named by their first characters', () => {
    const service = new ApiKeyService(new FakeApiKeyStore(), clock, [{ key: 'env-key-0123456789', scope: 'read' }]);
    expect(service.secured).toBe(true);
    expect(service.authenticate('env-key-0123456789')).toEqual({ name: 'env:env-ke…', scope: 'read' });
  });
});
