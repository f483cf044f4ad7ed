/**
 * Bounds a client can rely on; the limits table of docs/api/conventions.md repeats them. Rules, not HTTP: the
 * services check them and the request schemas (feedback.schemas.ts) declare them.
 */
export const FEEDBACK_LIMITS = {
  maxItems: 1000,
  maxIdLength: 256,
  maxShortText: 64,
  maxDurationMs: 86_400_000,
  maxExtraKeys: 32,
  maxExtraBytes: 4096,
  maxExtraDepth: 3,
  maxFutureSkewMs: 5 * 60 * 1000,
  maxFeatures: 256,
  maxFeatureName: 128,
} as const;
