/** The closed list of API key scopes, from least to most powerful in what they reach. */
export const API_SCOPES = ['ingest', 'read', 'admin'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** admin may do everything; read and ingest only their own kind of request. */
export function scopeAllows(held: ApiScope, required: ApiScope): boolean {
  return held === 'admin' || held === required;
}

/** Who a presented key belongs to: recorded as the actor in audit logs. */
export interface Principal {
  name: string;
  scope: ApiScope;
}

/** What the HTTP guard needs from whoever knows the keys (the auth module's ApiKeyService). */
export interface Authenticator {
  /** True when any key exists: then every non-public route needs one. */
  readonly secured: boolean;
  authenticate(presentedKey: string): Principal | undefined;
}
