/** Milliseconds in a UTC day: exposure days, planning windows, key retention. */
export const DAY_MS = 86_400_000;
