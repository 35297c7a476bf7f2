// npm run bench:app-record — seconds from Stop to the whole text on screen, for a 2- and a
// 5-minute recording made in the app (Debian Chromium, fake microphone playing real speech).
// With live upload every part but the last is text before Stop; the goal is "recognition of the
// last part + 3 s", whatever the length. Prints, per length: parts, Stop → text, and the server
// time of the last part's POST /transcribe (request sent → answer), which is its recognition;
// and a timeline line: the app's performance marks (voicedraft:stop, saved = recorder stopped and
// the audio assembled, last-part-queued = the worker cut the rest, text-ready = every part is
// text, shown = the note's text on screen) and every POST /transcribe still running or started
// after Stop (start and end in seconds after Stop, and its server time).
//
// Runs the real app (npm start's launcher, a fresh DATA_DIR, PocketSphinx); set NEXT_DIST_DIR
// to build beside other builds. Takes about 10 minutes: the recordings are made in real time.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loopedSpeech } from "@/bench/speech.ts";
import { chromium } from "playwright-core";
import { startServer } from "@/tests/support/processes.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const LENGTHS = (process.env.BENCH_MINUTES ?? "2,5").split(",").map(Number);

async function measure(url: string, wav: string, seconds: number) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-audio-capture=${wav}`],
  });
  try {
    const context = await browser.newContext({ baseURL: url, viewport: { width: 360, height: 740 }, hasTouch: true, permissions: ["microphone"] });
    // tsx keeps function names with a helper (__name) that functions sent to the page refer to.
    await context.addInitScript("globalThis.__name = (f) => f");
    const page = await context.newPage();
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(`bench-${Date.now()}@example.test`);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery staple");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL("**/record");
    await page.getByRole("button", { name: "Start recording" }).click();
    await page.getByTestId("recorder-state").getByText("Recording").waitFor();
    await page.waitForTimeout(seconds * 1000);
    await page.evaluate(() => performance.clearResourceTimings());
    const stoppedAt = Date.now();
    await page.getByRole("button", { name: "Stop and save" }).click();
    await page.waitForURL(/\/transcripts\/.+/, { timeout: 600_000 });
    // The page's own clock (a client-side navigation keeps it), read the moment the text is there.
    const shown = await (
      await page.waitForFunction(
        () => (document.querySelector('[data-testid="joined-text"], [data-testid="note-text"], textarea[aria-label^="Text of the note"]') ? performance.now() : 0),
        undefined,
        { timeout: 600_000, polling: "raf" },
      )
    ).jsonValue();
    const outside = (Date.now() - stoppedAt) / 1000;
    const timeline = await page.evaluate((shown) => {
      const mark = (name: string) => performance.getEntriesByName(name, "mark").at(-1)?.startTime ?? null;
      const stop = mark("voicedraft:stop")!;
      const at = (t: number | null) => (t === null ? null : (t - stop) / 1000);
      const posts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
        .filter((e) => e.name.endsWith("/transcribe"))
        .sort((a, b) => a.startTime - b.startTime);
      const last = posts.at(-1);
      return {
        saved: at(mark("voicedraft:saved")),
        lastQueued: at(mark("voicedraft:last-part-queued")),
        textReady: at(mark("voicedraft:text-ready")),
        shown: at(shown),
        // Parts still being sent or recognized when Stop was pressed, or sent after it.
        posts: posts.map((p) => ({ start: at(p.startTime), end: at(p.responseEnd), seconds: (p.responseStart - p.requestStart) / 1000 })),
        lastPart: last ? (last.responseStart - last.requestStart) / 1000 : null,
      };
    }, shown);
    const lastPart = timeline.lastPart;
    // Stop → text by the page's clock (the click's round trip to the browser left out); as seen from here, too.
    const toText = timeline.shown ?? outside;
    console.log(`  ${seconds / 60} min, seconds after Stop: ${JSON.stringify({ ...timeline, seenFromBench: outside })}`);
    const parts = await page.evaluate(async () => {
      const res = await fetch("/api/v1/transcriptions?limit=100", { credentials: "same-origin" });
      return ((await res.json()) as { transcriptions: unknown[] }).transcriptions.length;
    });
    return { toText, lastPart, parts };
  } finally {
    await browser.close();
  }
}

const dir = await mkdtemp(path.join(tmpdir(), "vd-bench-record-"));
const server = await startServer({ DATA_DIR: path.join(dir, "data"), TRANSCRIBE_ENGINE: "pocketsphinx", LOG_LEVEL: "warn" });
try {
  console.log("recording  parts  stop→text (s)  last part recognition (s)  margin (s)");
  for (const minutes of LENGTHS) {
    const wav = await loopedSpeech(dir, minutes * 60);
    const result = await measure(server.url, wav, minutes * 60).catch((err: Error) => {
      // A machine too busy to recognize within the time limit: say so, and go on to the next length.
      console.log(`${`${minutes} min`.padEnd(11)}no result: ${err.message.split("\n")[0]}`);
      return null;
    });
    if (!result) continue;
    const { toText, lastPart, parts } = result;
    const margin = lastPart === null ? "n/a" : (toText - lastPart).toFixed(1);
    console.log(`${`${minutes} min`.padEnd(11)}${String(parts).padEnd(7)}${toText.toFixed(1).padEnd(15)}${(lastPart?.toFixed(1) ?? "n/a").padEnd(27)}${margin}`);
  }
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
