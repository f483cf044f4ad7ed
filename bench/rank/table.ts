/** The rank bench's tables: every run, the mixed runs, and the goals of issue 28 with their figures. */
import type { Mixed, Sweep } from './sweep.js';
import { atHalf, maxOf } from './sweep.js';

const BARE = 'bare Fastify';

export function printResults(log: (line?: string) => void, sweeps: Sweep[], mixes: Mixed[], bareBefore: Map<string, number>): void {
  log('\n| case | database | load | offered req/s | achieved req/s | p50 ms | p90 ms | p99 ms | max ms | errors/non-2xx | load avg |');
  log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const s of sweeps) {
    for (const p of s.points) {
      const r = p.result;
      const load = p.share === 'max' ? `max (${p.result.requests} requests)` : `${p.share * 100} % of max`;
      log(
        `| ${s.name} | ${s.db} | ${load} | ${p.offered?.toFixed(0) ?? ''} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.errors}/${r.non2xx} | ${p.load} |`,
      );
    }
  }
  log(
    '\nMixed: open loop at half the case’s maximum while single-item ingestion runs open loop at half of its own maximum, same instance:',
  );
  log(
    '| case | database | offered req/s | achieved | p50 ms | p99 ms | max ms | ingest offered | ingest achieved | ingest p99 ms | errors/non-2xx | load avg |',
  );
  log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const m of mixes) {
    const r = m.result;
    log(
      `| ${m.name} | ${m.db} | ${m.offered.toFixed(0)} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.max} | ${m.ingestOffered.toFixed(0)} | ${m.ingest.rps.toFixed(0)} | ${m.ingest.p99} | ${r.errors + m.ingest.errors}/${r.non2xx + m.ingest.non2xx} | ${m.load} |`,
    );
  }
  const bare = sweeps.filter((s) => s.name.startsWith(BARE)).map((s) => maxOf(s).rps);
  log(
    `\nGoals (issue 28): p99 < 5 ms at half the maximum; p99 < 10 ms with ingestion at half its maximum; rank ≥ 50 % of the bare route's maximum measured right before it (the bare route's sweeps at the start and the end: ${bare.map((b) => b.toFixed(0)).join(', ')} req/s)`,
  );
  log('| case | database | max req/s | bare req/s before it | of bare | p99 at ½ max | < 5 ms | p99 mixed | < 10 ms |');
  log('|---|---|---:|---:|---:|---:|---|---:|---|');
  const yes = (ok: boolean) => (ok ? 'met' : 'not met');
  for (const s of sweeps.filter((x) => !x.name.startsWith(BARE))) {
    const half = atHalf(s).result.p99;
    const m = mixes.find((x) => x.name === s.name && x.db === s.db);
    const b = bareBefore.get(`${s.name}|${s.db}`);
    const ofBare = b ? `${((100 * maxOf(s).rps) / b).toFixed(0)} % (${yes(maxOf(s).rps >= b / 2)})` : '';
    log(
      `| ${s.name} | ${s.db} | ${maxOf(s).rps.toFixed(0)} | ${b?.toFixed(0) ?? ''} | ${ofBare} | ${half} | ${yes(half < 5)} | ${m ? m.result.p99 : ''} | ${m ? yes(m.result.p99 < 10) : ''} |`,
    );
  }
}
