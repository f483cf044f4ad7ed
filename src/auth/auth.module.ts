import type { Clock } from '../common/clock.js';
import { noRoutes, type DomainModule } from '../common/module.js';
import type { ApiScope } from '../common/scopes.js';
import type { DatabaseHandle } from '../storage/database.js';
import { KyselyApiKeyStore } from './api-key.kysely-store.js';
import { ApiKeyService } from './api-key.service.js';

export interface AuthDependencies {
  database: DatabaseHandle;
  clock: Clock;
  /** Keys from SEARCHLOOP_API_KEYS; keys created with the CLI live in the database. */
  envApiKeys?: { key: string; scope: ApiScope }[];
}

export type AuthModule = DomainModule<{ apiKeys: ApiKeyService }>;

/**
 * API keys. The HTTP guard (http/auth.ts) takes `services.apiKeys` as its Authenticator; keys are
 * managed from the CLI (`searchloop keys`), so the module has no routes yet.
 */
export function createAuthModule({ database, clock, envApiKeys }: AuthDependencies): AuthModule {
  const apiKeys = new ApiKeyService(new KyselyApiKeyStore(database.db), clock, envApiKeys);
  return {
    services: { apiKeys },
    routes: noRoutes,
    // Keys created or revoked on another instance take effect here within this interval.
    tasks: [{ name: 'api-key-refresh', intervalMs: 5000, run: () => apiKeys.refresh() }],
    close: async () => undefined,
  };
}
