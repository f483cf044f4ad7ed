import { DAY_MS } from '../../common/time.js';

/** An exposure's day (days since the epoch, UTC): the day key of the variant-day sums. */
export const exposureDay = (exposedAt: number) => Math.floor(exposedAt / DAY_MS);
