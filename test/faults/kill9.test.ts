import { describe, expect, it } from 'vitest';
import { sleep } from '../support/ports.js';
import { createFaultDatabase, faultDatabaseKinds } from './databases.js';
import { audit, listSessionItems, postBatch, prng, type SentBatch, startLoad, startServer, tally } from './harness.js';

const TRIALS = 20;
const CLIENTS = 6;

/**
 * Kill -9 at a random moment of sustained ingestion, restart on the same database, and check
 * that every item whose 201 came back is there exactly once. Unanswered requests may or may
 * not have committed; they are then retried with their Idempotency-Key, after which every item
 * of every request must be there exactly once (the key makes the retry safe).
 * The restart of trial n is the server of trial n + 1.
 */
describe.each(faultDatabaseKinds())('kill -9 during ingestion on %s', (kind) => {
  it(`${TRIALS} trials: every acknowledged item is present exactly once after restart`, async () => {
    const rand = prng(kind === 'sqlite' ? 0x6b696c6c : 0x6b696c70);
    const database = await createFaultDatabase(kind);
    const problems: string[] = [];
    const rows: Record<string, string | number>[] = [];
    let server = await startServer(database.env);
    try {
      for (let trial = 1; trial <= TRIALS; trial += 1) {
        const sessionId = `kill9-${kind}-t${trial}`;
        const maxItems = 1 + Math.floor(rand() * 60);
        const killAfterMs = 100 + Math.floor(rand() * 1400);
        const sizes = prng(trial);
        const load = startLoad({
          baseUrl: server.url,
          sessionId,
          prefix: `k9${kind[0]}${trial}`,
          clients: CLIENTS,
          itemsPerRequest: () => 1 + Math.floor(sizes() * maxItems),
          stopOnNoAnswer: true,
        });
        await sleep(killAfterMs);
        await server.killHard();
        const batches = await load.finished;
        const during = tally(batches.map((b) => b.answer));
        for (const b of batches) {
          if (b.answer.status !== undefined && b.answer.status !== 201)
            problems.push(`trial ${trial}: ${b.requestId} answered ${b.answer.status} ${JSON.stringify(b.answer.body)}`);
        }

        server = await startServer(database.env);
        const afterCrash = audit(batches, await listSessionItems(server.url, sessionId));

        // Retry what got no answer, with the same key and body, as a client would.
        const retried: SentBatch[] = [];
        for (const b of batches.filter((x) => x.answer.status !== 201)) {
          const answer = await postBatch(server.url, b.requestId, b.body);
          if (answer.status !== 201)
            problems.push(
              `trial ${trial}: retry of ${b.requestId} answered ${answer.status ?? answer.error} ${JSON.stringify(answer.body)}`,
            );
          retried.push({ ...b, answer });
        }
        const all = [...batches.filter((x) => x.answer.status === 201), ...retried];
        const afterRetry = audit(all, await listSessionItems(server.url, sessionId));
        const expectedItems = batches.reduce((n, b) => n + b.queryIds.length, 0);

        for (const [when, a] of [
          ['after restart', afterCrash],
          ['after retries', afterRetry],
        ] as const) {
          if (a.lost.length)
            problems.push(`trial ${trial} ${when}: ${a.lost.length} acknowledged items lost, e.g. ${a.lost.slice(0, 3).join(', ')}`);
          if (a.duplicates.length) problems.push(`trial ${trial} ${when}: duplicated items ${a.duplicates.slice(0, 5).join(', ')}`);
          if (a.partial.length) problems.push(`trial ${trial} ${when}: partial submissions ${a.partial.slice(0, 5).join(', ')}`);
        }
        if (afterRetry.found !== expectedItems)
          problems.push(`trial ${trial}: after retries ${afterRetry.found} items found, ${expectedItems} sent`);

        rows.push({
          trial,
          killAfterMs,
          requests: batches.length,
          acknowledged: afterCrash.acknowledged,
          ackedItems: afterCrash.acknowledgedItems,
          unanswered: afterCrash.unanswered,
          unackedButCommitted: afterCrash.unacknowledgedPresent,
          found: afterCrash.found,
          lost: afterCrash.lost.length,
          duplicates: afterCrash.duplicates.length,
          afterRetryFound: afterRetry.found,
          afterRetryDuplicates: afterRetry.duplicates.length,
          answers: JSON.stringify(during),
        });
      }
    } finally {
      await server.stop();
      await database.drop();
    }
    const total = (key: string) => rows.reduce((n, r) => n + Number(r[key]), 0);
    console.log(`\nkill -9 on ${kind}: ${rows.length} trials`);
    console.table(rows);
    console.log(
      `kill -9 on ${kind} totals: acknowledged requests ${total('acknowledged')}, acknowledged items ${total('ackedItems')}, ` +
        `found ${total('found')}, lost ${total('lost')}, duplicates ${total('duplicates')}, unanswered ${total('unanswered')} ` +
        `(of which committed before the kill: ${total('unackedButCommitted')})`,
    );
    expect(problems).toEqual([]);
    expect(rows).toHaveLength(TRIALS);
    expect(total('acknowledged')).toBeGreaterThan(0);
  });
});
