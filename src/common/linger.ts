/**
 * How a group writer (GroupCommit, WriteBehind) starts its first group after idling: under steady
 * traffic (its last group ended less than 10 × lingerMs ago) it waits lingerMs for more entries to
 * join, as PostgreSQL's commit_delay does, so a commit's fixed cost is shared by more of them; a lone
 * entry at rest, or lingerMs 0, waits only for the requests already in this turn of the event loop.
 */
export function startFirstGroup(run: () => void, lingerMs: number, lastWriteEnded: number): void {
  if (lingerMs > 0 && performance.now() - lastWriteEnded < 10 * lingerMs) setTimeout(run, lingerMs);
  else setImmediate(run);
}
