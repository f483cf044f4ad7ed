/**
 * Exposures and interleaved lists are committed behind their answers (the write-behind queues of
 * AssignmentService and RankService), so a store that reads what they feed is wrapped here: each
 * of its methods first waits until every write this instance answered before the call is
 * committed. Results, the sample-ratio check, attribution and interleaving credit on this instance
 * then see the answers it has given (read-your-writes); the wait is at most the group commit in
 * progress and the next one, not the queue's whole future.
 */
export function afterSearchTimeWrites<S extends object>(store: S, settled: () => Promise<void>): S {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await settled();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
