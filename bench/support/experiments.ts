import fs from 'node:fs';

/**
 * What the assignment benchmarks run: a plain A/B test on every unit, a three-way test in a layer
 * at 80 % traffic, and one targeted by an attribute. Shared so every script measures the same work.
 */
export const BENCH_EXPERIMENTS = [
  { variants: [{ id: 'control' }, { id: 'grid' }], trafficAllocation: 1 },
  {
    variants: [
      { id: 'a', weight: 0.2 },
      { id: 'b', weight: 0.3 },
      { id: 'c', weight: 0.5 },
    ],
    trafficAllocation: 0.8,
    layer: { id: 'ranking', range: [0, 0.5] },
  },
  { variants: [{ id: 'a' }, { id: 'b' }], conditions: { country: { $in: ['NL', 'BE'] } } },
];

/** The attributes every benchmark unit sends (the targeted experiment enrols them). */
export const BENCH_ATTRIBUTES = { country: 'NL', device: 'mobile' };

/** The assign body for autocannon, which puts a fresh UUID in place of [<id>]: every request a new unit. */
export const ASSIGN_BODY = JSON.stringify({ unitId: '[<id>]', attributes: BENCH_ATTRIBUTES });

/** Creates and starts the experiments at the given indices of BENCH_EXPERIMENTS on a running server. */
export async function startBenchExperiments(url: string, which: readonly number[], namePrefix: string): Promise<void> {
  const post = (u: string, payload?: unknown) =>
    fetch(url + u, {
      method: 'POST',
      headers: payload ? { 'content-type': 'application/json' } : {},
      body: payload ? JSON.stringify(payload) : null,
    }).then((r) => r.json() as Promise<{ data: { experimentId: string } }>);
  for (const i of which) {
    const created = await post('/api/nous/ab-testing/experiments', {
      name: `${namePrefix}-${i}-${Date.now()}`,
      configuration: BENCH_EXPERIMENTS[i],
    });
    await post(`/api/nous/ab-testing/experiments/${created.data.experimentId}/start`);
  }
}

/** CPU seconds (user + system, every thread) a process has used so far, from /proc. */
export function processCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}
