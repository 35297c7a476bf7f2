// npm test: lint, typecheck, and every test suite, on the embedded PGlite and on a real PostgreSQL
// (TEST_DATABASE_URL, or the local server when it is reachable). Ends with each step's time and the line
// "N passed, N failed" (tests, plus lint and typecheck as one check each); exits non-zero on any failure.
//
// Options: --only=<step>[,<step>] runs some steps (lint, typecheck, unit, db, api-pglite, api-postgres,
// system, sdk, e2e; and smoke, run only when asked: lint, unit and one real start); extra arguments after --
// go to the test runner: `node --test` (e.g. --test-name-pattern), or `playwright test` (e.g. --grep) for
// --only=e2e. VD_TEST_ONE_LANE=1 runs every step one after the other.
// The steps are the table in scripts/test/steps.mjs; scripts/test/run-step.mjs runs each.
import { buildApp, Output } from "./test/processes.mjs";
import { runStep, Tally } from "./test/run-step.mjs";
import { STEPS } from "./test/steps.mjs";

const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",");
const passThrough = args.includes("--") ? args.slice(args.indexOf("--") + 1) : [];
const oneLane = process.env.VD_TEST_ONE_LANE === "1";

const chosen = STEPS.filter((step) => (only ? only.includes(step.name) : !step.askedOnly));
/** The chosen steps that run beside `step`, in a lane of their own (none when everything takes one lane). */
const besideOf = (step) => (oneLane ? [] : chosen.filter((s) => s.beside === step.name));
const inMainLane = chosen.filter((step) => !chosen.some((s) => besideOf(s).includes(step)));

/** A lane: where its output goes, what it counted, and each of its steps' time. */
const newLane = (held) => ({ out: new Output(held), tally: new Tally(), times: [], env: {}, passThrough });

/** Runs a lane's steps in turn, timed (the build is counted in the first step that needed it). */
async function runLane(steps, lane, suffix = "") {
  const timed = async (step, started, label = step.name) => {
    await runStep(step, { ...lane, stepName: step.name });
    lane.times.push([`${label}${suffix}`, (Date.now() - started) / 1000]);
  };
  for (const step of steps) {
    const partner = steps.find((s) => s.name === step.together);
    if (partner && steps.indexOf(partner) < steps.indexOf(step)) continue; // ran with its partner
    const started = Date.now();
    if (partner) {
      await Promise.all([step, partner].map((s) => timed(s, started, `${s.name} (together)`)));
      continue;
    }
    const beside = besideOf(step);
    if (step.buildsBeside && chosen.some((s) => s.needs === "build")) {
      // The build beside this step, its output held until the step ends: the steps that need it then do not wait for it.
      const held = new Output(true);
      const built = buildApp(held);
      await timed(step, started);
      await built;
      lane.out.log(`\n=== the production build (made beside ${step.name})\n${held.text}`);
      continue;
    }
    if (!beside.length) {
      await timed(step, started);
      continue;
    }
    // The steps beside start once the build they share is there; their output follows this step's.
    const names = beside.map((s) => s.name).join(" and ");
    if (step.needs === "build") await buildApp(lane.out);
    lane.out.log(`\n=== ${names} beside the browser tests (their output follows the browser tests')`);
    const side = newLane(true);
    const besideDone = runLane(beside, side, " (beside)");
    await runStep(step, { ...lane, stepName: step.name });
    lane.times.push([step.name, (Date.now() - started) / 1000]);
    await besideDone;
    lane.out.log(`\n=== ${names} (run beside the browser tests)\n${side.out.text}`);
    lane.tally.add(side.tally);
    lane.times.push(...side.times);
  }
}

const started = Date.now();
const main = newLane(false);
await runLane(inMainLane, main);

// Steps marked "beside" ran at the same time as the browser tests, so the total is the time it all took.
console.log("\nStep times:");
for (const [name, seconds] of main.times) console.log(`  ${name.padEnd(22)} ${seconds.toFixed(0).padStart(5)} s`);
console.log(`  ${"total".padEnd(22)} ${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s`);
console.log("");
const { passed, failed, failures } = main.tally;
if (failures.length) console.log(`Failed: ${failures.join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
