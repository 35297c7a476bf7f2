// The steps of `npm test`, in the order they run (README, "Test it"; a step "beside" another runs in the lane beside it, in this order): what each runs, with what environment,
// in which lane and after what. scripts/test.mjs schedules them; scripts/test/run-step.mjs runs each kind.
//
// A step (or a part of one) is one of:
//   check: [bin, ...args]   a command from node_modules/.bin; its exit code is one check, passed or failed
//   files: dir | [file]     `node --test` over the dir's *.test.ts; its tests counted by counts-reporter.mjs
//   python: { start, top, path }   a unittest suite; its tests counted by unittest_counts.py
//   parts: [step | name]    steps run in turn (a name is another step of this table)
//   service: program        started first; the env it prints reaches the parts, and it stops after them
//   playwright: [...args]   `playwright test` (playwright.config.ts); its tests counted from its JSON report
// and may say:
//   title       its header (=== title) and its name in the summary; a step's name when it has none
//   env         more environment for its tests
//   needs       "build": the production build (made once, counted in the first step that needs it);
//               "postgres": a PostgreSQL server (TEST_DATABASE_URL, else 127.0.0.1:5432), else skipped, saying so
//   together    another step run at the same time, when both are asked for
//   beside      a step these run beside, in a lane of their own whose output is held until it ends
//               (VD_TEST_ONE_LANE=1 runs every step in turn)
//   buildsBeside  the production build is made while it runs (when a chosen step needs it), its output after the step's
//   askedOnly   run only when named in --only=
export const STEPS = [
  // Lint and typecheck each keep one core busy: side by side (their output, on failure, may interleave).
  { name: "lint", check: ["eslint", "--max-warnings=0", "."], together: "typecheck" },
  { name: "typecheck", check: ["tsc", "--noEmit"], together: "lint" },
  { name: "unit", title: "unit tests", files: "tests/unit" },
  { name: "db", title: "database tests (PGlite and PostgreSQL)", files: "tests/db" },
  { name: "api-pglite", title: "API tests on PGlite", files: "tests/api", env: { TEST_DB: "pglite" } },
  // Alone, before the browser tests: beside them (session 51) the cores were shared three ways, the
  // browser tests took 40 % longer and a live-caption test lost its timing; the suite is bound by CPU.
  // The build is made beside it (about a minute that the browser tests otherwise waited for alone).
  { name: "api-postgres", title: "API tests on PostgreSQL", files: "tests/api", env: { TEST_DB: "postgres" }, needs: "postgres", buildsBeside: true },
  // The browser tests keep about half of the two cores busy (the fake microphone plays in real time, pages
  // wait for their server): the system and SDK steps run beside them.
  { name: "system", title: "system tests (CLI and the running server)", files: "tests/system", needs: "build", beside: "e2e" },
  // The PWA in Debian's Chromium against the real app, on Playwright's runner: its webServer, two workers,
  // and the files that record live after the others, one at a time (playwright.config.ts).
  { name: "e2e", title: "browser tests (Playwright, Chromium)", playwright: ["test"], needs: "build" },
  // Both client libraries against ONE real server (npm start, embedded database, PocketSphinx).
  {
    name: "sdk",
    needs: "build",
    beside: "e2e",
    parts: [
      { title: "JS SDK build (ESM and type declarations)", check: ["tsc", "-p", "sdk/js/tsconfig.json"] },
      { title: "JS SDK tests typecheck", check: ["tsc", "-p", "sdk/js/test/tsconfig.json"] },
      { title: "Python SDK typecheck (pyright: strict, Python 3.9)", check: ["pyright", "-p", "sdk/python"] },
      {
        title: "SDK service (npm start for the SDK suites)",
        service: "tests/support/sdk-service.ts",
        serviceName: "the SDK service",
        parts: [
          { title: "JS SDK tests", files: "sdk/js/test" },
          { title: "Python SDK tests", python: { start: "sdk/python/tests", top: "sdk/python", path: "sdk/python/src" } },
        ],
      },
    ],
  },
  // .ci/run runs it on the Node that package.json's engines name as the floor, after the whole suite on
  // Node 24: the unit tests and one real start.
  {
    name: "smoke",
    askedOnly: true,
    // Not lint again: what eslint finds does not depend on the Node it runs on.
    parts: ["unit", { title: "one real start (npm start, a transcription over HTTP)", files: ["tests/system/server.test.ts"], needs: "build" }],
  },
];
