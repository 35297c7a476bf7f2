// The browser tests (tests/e2e/*.test.ts) on Playwright's own runner: `npx playwright test`, or
// `npm test` (scripts/test.mjs, which reads the JSON report for its count). Debian's Chromium, a
// phone at 360×740; the tests that look at both themes open their dark pages themselves (a test
// compares them in one flow, or is written once per theme), as the screenshots name them.
import { defineConfig } from "@playwright/test";
import { READY_LINE } from "@/tests/e2e/app-server.ts";
import { chromiumLaunchOptions } from "@/tests/e2e/chromium.ts";
import { JFK_WAV } from "@/tests/support/audio.ts";

// The files that record live: PocketSphinx hears their speech while the fake microphone plays it in
// real time, and on a slow machine, sharing the cores with other tests' recognitions, their captions
// came after the tests' waits. They run after every other file, one at a time.
const RECORD_LIVE = ["**/live-upload.test.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.test.ts",
  // A test is a whole flow through the app (the longest, a long recording, about 4 minutes here).
  timeout: 600_000,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [
    ["list"],
    ["html", { open: "never" }],
    // scripts/test.mjs counts the tests from it (E2E_JSON_REPORT, a file of its own run).
    ["json", { outputFile: process.env.E2E_JSON_REPORT ?? "test-results/report.json" }],
  ],
  use: {
    viewport: { width: 360, height: 740 },
    colorScheme: "light",
    hasTouch: true,
    launchOptions: chromiumLaunchOptions(JFK_WAV),
    // As playwright-core's own defaults: a wait that does not say how long fails after 30 s.
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    trace: "retain-on-failure",
  },
  projects: [
    // A teardown project runs after the project it tears down, even when that one failed (a dependency would be skipped).
    { name: "phone", testIgnore: RECORD_LIVE, teardown: "phone, recording live" },
    { name: "phone, recording live", testMatch: RECORD_LIVE, workers: 1 },
  ],
  // The app for every file that wants only its defaults (tests/e2e/app-server.ts; it builds the app
  // first when the build is older than the sources). E2E_URL: a server you run yourself instead.
  webServer: process.env.E2E_URL
    ? undefined
    : {
        command: "node --import tsx tests/e2e/app-server.ts",
        wait: { stdout: READY_LINE },
        stdout: "ignore",
        timeout: 900_000,
        gracefulShutdown: { signal: "SIGTERM", timeout: 30_000 },
      },
});
