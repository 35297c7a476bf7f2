"""Runs a unittest suite as `python -m unittest discover -v -s START -t TOP` does, then writes its counts
to RESULT as one JSON line, {"passed": N, "failed": N, "skipped": N}, what scripts/test.mjs counts the
step from. Failures, errors and unexpected successes fail; expected failures count as neither.

    python3 scripts/test/unittest_counts.py RESULT START TOP
"""

import json
import sys
import unittest


def main(result_path: str, start_dir: str, top_level_dir: str) -> int:
    suite = unittest.defaultTestLoader.discover(start_dir, top_level_dir=top_level_dir)
    # As unittest's own main: warnings shown once per place unless -W says otherwise.
    runner = unittest.TextTestRunner(verbosity=2, warnings=None if sys.warnoptions else "default")
    result = runner.run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped - len(result.expectedFailures)
    with open(result_path, "w", encoding="utf-8") as f:
        f.write(json.dumps({"passed": passed, "failed": failed, "skipped": skipped}) + "\n")
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
