const DAY_MS = 86_400_000;
/** Events never stamped later than this before the wall clock: a session's searches and dwell fit in it. */
export const PRESENT_MARGIN_MS = 10 * 60_000;

/**
 * Compressed time: the simulation starts `days` before the wall clock and runs `speed` times as
 * fast, until it reaches the present (less a margin), where it runs at wall-clock pace. Only event
 * timestamps follow it; the service receives everything now.
 */
export function simulatedClock(wallStartMs: number, days: number, speed: number): (wallNowMs: number) => number {
  const simStart = wallStartMs - days * DAY_MS;
  return (wallNowMs) => Math.min(simStart + (wallNowMs - wallStartMs) * speed, wallNowMs - PRESENT_MARGIN_MS);
}

/** The speed that spreads `days` over a run of `durationSeconds`. */
export function defaultSpeed(days: number, durationSeconds: number): number {
  return durationSeconds > 0 ? (days * DAY_MS) / (durationSeconds * 1000) : 1;
}
