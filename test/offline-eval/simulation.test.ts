import { describe, expect, it } from 'vitest';
import { simulateLog } from '../../bench/offline-eval/logs.js';
import { METRICS, observedValue, policyValue, type UserModel } from '../../bench/offline-eval/users.js';
import { buildRankers, loadWorld } from '../../bench/offline-eval/world.js';

// The offline-evaluation benchmark scores estimators against values computed in closed form from the
// user model; here those closed forms meet a Monte-Carlo run of the same users (fixed seed).
describe('offline-eval benchmark: exact truth', () => {
  const world = loadWorld();
  const { production, treatment } = buildRankers(world);
  const arms = [
    { name: 'production', share: 0.5, policy: production },
    { name: 'treatment', share: 0.5, policy: treatment },
  ];
  const cases: UserModel[] = [
    { kind: 'pbm', eta: 1 },
    { kind: 'dbn', gamma: 0.9 },
  ];

  it.each(cases)('matches a simulation of the same users within 3 standard errors ($kind)', (users) => {
    const exact = policyValue(world, arms, users, 0.02);
    const log = simulateLog(world, { sessions: 40_000, users, arms, exploration: 0.02, seed: 11 });
    const values = log.searches.map((s) => observedValue(s.clicks));
    for (const m of METRICS) {
      const xs = values.map((v) => v[m]);
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
      expect(Math.abs(mean - exact[m]), m).toBeLessThan((3 * sd) / Math.sqrt(xs.length));
    }
  });

  it('ranks the hidden relevance above its reverse under both user models', () => {
    for (const users of cases) {
      const best = policyValue(
        world,
        [{ share: 1, policy: production.map((l) => [...l].sort((a, b) => world.grade[b]! - world.grade[a]!)) }],
        users,
      );
      const worst = policyValue(
        world,
        [{ share: 1, policy: production.map((l) => [...l].sort((a, b) => world.grade[a]! - world.grade[b]!)) }],
        users,
      );
      expect(best.mrr).toBeGreaterThan(worst.mrr);
      expect(best.abandonment_rate).toBeLessThan(worst.abandonment_rate);
    }
  });
});
