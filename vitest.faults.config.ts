import { defineConfig } from 'vitest/config';

/**
 * Crash-safety and fault tests (issue #6): real `node dist/cli/cli.js serve` child processes killed,
 * signalled and starved of their database. Run with `npm run test:faults`, which builds first.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['./test/support/global-setup.ts'],
    testTimeout: 20 * 60_000,
    hookTimeout: 5 * 60_000,
    // Each file drives its own servers and load; two at a time on two cores.
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
