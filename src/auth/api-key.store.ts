import type { ApiScope } from '../common/scopes.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  scope: ApiScope;
  keyHash: string;
  /** The first characters of the key, to recognise it in a list. */
  prefix: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface ApiKeyStore {
  /** 'duplicate' when the name is taken. */
  insert(key: ApiKeyRecord): Promise<'inserted' | 'duplicate'>;
  list(): Promise<ApiKeyRecord[]>;
  /** Active (not revoked) keys, for the authentication cache. */
  listActive(): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked by name or id; false when no active key matched. */
  revoke(nameOrId: string, at: number): Promise<boolean>;
}
