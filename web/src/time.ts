/**
 * One day in milliseconds: the web app's one definition. The dashboard is a separate bundle and
 * cannot import the service's src/common/time.ts, so it keeps this copy.
 */
export const DAY_MS = 86_400_000;
