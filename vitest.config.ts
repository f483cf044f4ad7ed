import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Crash and fault tests run real servers for minutes: `npm run test:faults`.
    exclude: ['**/node_modules/**', 'test/faults/**'],
    environment: 'node',
    // PostgreSQL and Chromium probes: each missing one is a loud skip, or a failure under REQUIRE_POSTGRES / REQUIRE_BROWSER.
    globalSetup: ['./test/support/global-setup.ts', './test/e2e/support/browser-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files each get their own database; two cores, so keep parallelism modest.
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
