// The API key lives in sessionStorage: it survives reloads of this tab, never reaches other tabs
// or disk beyond the session, and is sent only to this origin's /api as a Bearer token.
const STORAGE_KEY = 'searchloop.apiKey';
const listeners = new Set<() => void>();

export function getApiKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function setApiKey(key: string | null): void {
  if (key && key.trim()) sessionStorage.setItem(STORAGE_KEY, key.trim());
  else sessionStorage.removeItem(STORAGE_KEY);
  for (const listener of listeners) listener();
}

export function subscribeApiKey(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
