// A reporter for `node --test` (--test-reporter=<this file>): when the run ends it writes one JSON line,
// {"passed":N,"failed":N,"skipped":N,"todo":N}, what scripts/test.mjs counts a step's tests from. It counts
// as the runner's own summary does: tests, not suites; skipped and todo apart; a cancelled test (its
// timeout, or its parent ended first) and a file that failed to load are failures.
export default async function* countsReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for await (const { type, data } of source) {
    if ((type !== "test:pass" && type !== "test:fail") || data.details?.type === "suite") continue;
    if (data.skip) counts.skipped += 1;
    else if (data.todo) counts.todo += 1;
    else if (type === "test:fail") counts.failed += 1;
    else counts.passed += 1;
  }
  yield `${JSON.stringify(counts)}\n`;
}
