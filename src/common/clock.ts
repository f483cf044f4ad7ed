/** Injected wherever time matters, so tests can move it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Epoch milliseconds as the ISO 8601 UTC text every response uses. */
export const toIso = (ms: number): string => new Date(ms).toISOString();
