import type { Kysely, Selectable } from 'kysely';
import type { ApiScope } from '../common/scopes.js';
import type { ApiKeyTable, Database } from '../storage/schema.js';
import { isUniqueViolation } from '../storage/sql-errors.js';
import type { ApiKeyRecord, ApiKeyStore } from './api-key.store.js';

const fromRow = (r: Selectable<ApiKeyTable>): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  scope: r.scope as ApiScope,
  keyHash: r.key_hash,
  prefix: r.prefix,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export class KyselyApiKeyStore implements ApiKeyStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(k: ApiKeyRecord): Promise<'inserted' | 'duplicate'> {
    try {
      await this.db
        .insertInto('api_keys')
        .values({
          id: k.id,
          name: k.name,
          scope: k.scope,
          key_hash: k.keyHash,
          prefix: k.prefix,
          created_at: k.createdAt,
          revoked_at: k.revokedAt,
        })
        .execute();
      return 'inserted';
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      throw error;
    }
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').execute()).map(fromRow);
  }

  async listActive(): Promise<ApiKeyRecord[]> {
    return (await this.db.selectFrom('api_keys').selectAll().where('revoked_at', 'is', null).execute()).map(fromRow);
  }

  async revoke(nameOrId: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where((eb) => eb.or([eb('name', '=', nameOrId), eb('id', '=', nameOrId)]))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
