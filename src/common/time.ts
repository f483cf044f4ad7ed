/** Milliseconds in an hour: analytics' hour rows and their windows. */
export const HOUR_MS = 3_600_000;

/** Milliseconds in a UTC day: exposure days, planning windows, key retention. */
export const DAY_MS = 86_400_000;
