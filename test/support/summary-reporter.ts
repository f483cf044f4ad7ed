import type { Reporter, SerializedError, TestModule, TestRunEndReason } from 'vitest/node';

/**
 * Prints one plain closing line so that CI logs state the outcome in a form any reader understands:
 * `files: N passed, N failed · suites: N failed · tests: N passed, N failed, N skipped · errors: N · run: passed`.
 *
 * Counting tests alone is not enough: a file that fails to load (a missing fixture, a syntax error)
 * or a failing `beforeAll` has no failed test, and a line that says "0 failed" on a red run lies.
 * So failed files, failed suites and unhandled errors are counted too, and the last word is the
 * run's own verdict.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let filesPassed = 0;
    let filesFailed = 0;
    let suitesFailed = 0;
    for (const mod of testModules) {
      const moduleFailed = mod.state() === 'failed' || mod.errors().length > 0;
      if (moduleFailed) filesFailed += 1;
      else filesPassed += 1;
      for (const suite of mod.children.allSuites()) {
        if (suite.state() === 'failed' || suite.errors().length > 0) suitesFailed += 1;
      }
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    const verdict = reason === 'passed' && filesFailed === 0 && failed === 0 && unhandledErrors.length === 0 ? 'passed' : 'FAILED';
    process.stdout.write(
      `\nfiles: ${filesPassed} passed, ${filesFailed} failed · suites: ${suitesFailed} failed · ` +
        `tests: ${passed} passed, ${failed} failed, ${skipped} skipped · errors: ${unhandledErrors.length} · run: ${verdict}\n`,
    );
  }
}
