/** The auth module's table: API keys created with the CLI (only their hashes). Composed into `Database` by storage/schema.ts. */
export interface AuthTables {
  api_keys: ApiKeyTable;
}

export interface ApiKeyTable {
  id: string;
  name: string;
  scope: string;
  key_hash: string;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
}
