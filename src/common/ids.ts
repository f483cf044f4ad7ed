import { monotonicFactory } from 'ulid';

/** ULIDs sort by creation time, so they double as the pagination key. */
export const newId: () => string = monotonicFactory();
