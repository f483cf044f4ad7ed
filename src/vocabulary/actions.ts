/**
 * What a feedback item's `userAction` means, for every part of the service: experiment metrics,
 * click-model sessions, learning features and anything built on feedback later. One vocabulary,
 * so CTR on an experiment and clicks in a model's metrics count the same items.
 *
 * - an impression is `impression`: the result was shown (at `customMetadata.position`);
 * - a click is `click`, and only `click`;
 * - a conversion is `purchase` or `conversion` (conversion_rate);
 * - `add_to_cart` is an engagement: neither a click nor a conversion;
 * - a satisfied click is a click whose `dwellTime` is at least SATISFIED_DWELL_MS;
 * - `rate` carries an explicit judgment in `rating`; `skip` is a result shown and passed over.
 *
 * Any other verb is stored as sent and counted by none of the definitions.
 */
export const ACTIONS = {
  impression: 'impression',
  click: 'click',
  addToCart: 'add_to_cart',
  purchase: 'purchase',
  conversion: 'conversion',
  rate: 'rate',
  skip: 'skip',
} as const;

/** The verbs the service gives a meaning to, in the order the API documents them. */
export const KNOWN_ACTIONS: readonly string[] = Object.values(ACTIONS);

export const CONVERSION_ACTIONS: readonly string[] = [ACTIONS.purchase, ACTIONS.conversion];
export const ENGAGEMENT_ACTIONS: readonly string[] = [ACTIONS.addToCart];

/** Dwell time (ms) from which a click counts as satisfied: 30 s, the usual "long click". */
export const SATISFIED_DWELL_MS = 30_000;

type Action = string | null | undefined;

export const isImpression = (action: Action): boolean => action === ACTIONS.impression;
export const isClick = (action: Action): boolean => action === ACTIONS.click;
export const isConversion = (action: Action): boolean => action != null && CONVERSION_ACTIONS.includes(action);
export const isSatisfiedClick = (action: Action, dwellTime: number | null | undefined): boolean =>
  isClick(action) && dwellTime != null && dwellTime >= SATISFIED_DWELL_MS;

const quoted = (actions: readonly string[]) => actions.map((a) => `'${a}'`).join(', ');

/**
 * The same definitions as SQL conditions over a feedback_items row (columns `user_action`,
 * `dwell_time`), for stores that aggregate raw feedback. Built from the constants above, never
 * from a request.
 */
export const ACTION_SQL = {
  isImpression: `user_action = '${ACTIONS.impression}'`,
  isClick: `user_action = '${ACTIONS.click}'`,
  isConversion: `user_action in (${quoted(CONVERSION_ACTIONS)})`,
  isSatisfiedClick: `user_action = '${ACTIONS.click}' and dwell_time >= ${SATISFIED_DWELL_MS}`,
} as const;
