// npm run bench:app-record — seconds from Stop to the whole text on screen, for a 15-second, a
// 1-minute and a 5-minute recording made in the app (Debian Chromium, fake microphone playing real
// speech with pauses). The app sends each second of audio as it is recorded and the server
// recognizes it piece by piece, so after Stop only the last piece is left. Prints, per length:
// Stop → text, the server time of POST …/finish (the last piece's recognition, the join and the
// save), and the captions' delay while recording: for each phrase said (a stretch of speech
// between pauses, by Silero VAD over the played file), seconds from its end to its words on
// screen (median and worst; bench/speech.ts, captionDelays); the first caption's delay after the
// speech starts, and for each phrase, seconds from its first second said to words of it on screen
// (firstWordsDelays: the provisional words while the person speaks); and the final text's word
// error rate against the looped reference (loopedReference). A timeline line follows: the
// app's performance marks after Stop (saved = recorder stopped and the audio assembled,
// last-part-queued = queued for finishing, text-ready = the note exists, shown = its text on
// screen) and the live-recording requests after Stop; then the server's log of that finish (seconds
// to each of its steps: the rest cut, the whole decoded, the last pieces heard, joined, saved, the
// recording kept).
//
// Each figure is also printed as a ratio to bare PocketSphinx on jfk.wav (11 s of speech), timed
// before and after in the same run (machines here differ 2× in speed); the goals (issue 47):
// Stop → text ≤ 0.4×, captions' median ≤ 0.4× and worst ≤ 0.7×; words while speaking within 0.3×
// (issue 57). POCKETSPHINX_STREAM_PATH= (empty) measures pocketsphinx_continuous's stream instead,
// whose captions wait for each pause: the run to compare with.
//
// Runs the real app (npm start's launcher, a fresh DATA_DIR, PocketSphinx); set NEXT_DIST_DIR
// to build beside other builds. Takes about 8 minutes: the recordings are made in real time.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { bareJfkSeconds, captionDelays, firstWordsDelays, loopedReference, loopedSpeech, speechSpans, wer } from "@/bench/speech.ts";
import { chromium } from "playwright-core";
import { startServer } from "@/tests/support/processes.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const LENGTHS = (process.env.BENCH_MINUTES ?? "0.25,1,5").split(",").map(Number);

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
        .filter((e) => e.name.includes("/api/v1/live-recordings/") || e.name.endsWith("/transcribe"))
        .filter((e) => e.responseEnd >= stop)
        .sort((a, b) => a.startTime - b.startTime);
      // The captions while recording: how long after the speech they cover its words showed.
      const started = mark("voicedraft:record-start") ?? 0;
      // Each time the words on screen reached further: when (seconds into the recording), and how far.
      let reached = 0;
      const updates: { at: number; reach: number }[] = [];
      for (const entry of performance.getEntriesByName("voicedraft:captions", "mark") as PerformanceMark[]) {
        const heard = (entry.detail as { heard: number }).heard;
        if (entry.startTime > stop || heard <= reached) continue;
        reached = heard;
        updates.push({ at: (entry.startTime - started) / 1000, reach: heard });
      }
      const last = posts.at(-1);
      return {
        saved: at(mark("voicedraft:saved")),
        lastQueued: at(mark("voicedraft:last-part-queued")),
        textReady: at(mark("voicedraft:text-ready")),
        shown: at(shown),
        // Parts still being sent or recognized when Stop was pressed, or sent after it.
        posts: posts.map((p) => ({ start: at(p.startTime), end: at(p.responseEnd), seconds: (p.responseStart - p.requestStart) / 1000 })),
        lastPart: last ? (last.responseStart - last.requestStart) / 1000 : null,
        updates,
      };
    }, shown);
    const { lastPart, updates, ...after } = timeline;
    // Seconds from the end of each phrase to its words on screen (the fake microphone plays `wav`).
    const spans = await speechSpans(wav);
    const delays = captionDelays(updates, spans, seconds).sort((a, b) => a - b);
    const captions = delays.length ? { phrases: delays.length, median: delays[Math.floor(delays.length / 2)], worst: delays.at(-1)! } : null;
    // While the person speaks: the first words after speech starts, and each phrase's first words
    // (its first second said) until they show.
    const first = updates[0] && spans[0] ? updates[0].at - spans[0].start : null;
    const starts = firstWordsDelays(updates, spans, seconds).sort((a, b) => a - b);
    const speaking = starts.length ? { median: starts[Math.floor(starts.length / 2)], worst: starts.at(-1)! } : null;
    // Stop → text by the page's clock (the click's round trip to the browser left out); as seen from here, too.
    const toText = timeline.shown ?? outside;
    console.log(`  ${seconds / 60} min, seconds after Stop: ${JSON.stringify({ ...after, lastPart, captions, first, speaking, seenFromBench: outside })}`);
    console.log(`  captions (s into the recording: reach): ${updates.map((u) => `${u.at.toFixed(1)}:${u.reach.toFixed(1)}`).join(" ")}`);
    const notes = await page.evaluate(async () => {
      const res = await fetch("/api/v1/transcriptions?limit=100", { credentials: "same-origin" });
      const { transcriptions } = (await res.json()) as { transcriptions: { id: string }[] };
      // The recognizer's words (before clean-up), for the final text's word error rate.
      const texts = await Promise.all(transcriptions.map(async ({ id }) => ((await (await fetch(`/api/v1/transcriptions/${id}`)).json()) as { raw_text?: string }).raw_text ?? ""));
      return { parts: transcriptions.length, text: texts.reverse().join(" ") };
    });
    const errorRate = wer(notes.text, loopedReference(seconds));
    console.log(`  final text: word error rate ${(errorRate * 100).toFixed(1)}% against the looped reference`);
    return { toText, lastPart, parts: notes.parts, captions, first, speaking, errorRate };
  } finally {
    await browser.close();
  }
}

const dir = await mkdtemp(path.join(tmpdir(), "vd-bench-record-"));
const server = await startServer({
  DATA_DIR: path.join(dir, "data"),
  TRANSCRIBE_ENGINE: "pocketsphinx",
  LOG_LEVEL: "info",
  ...(process.env.POCKETSPHINX_STREAM_PATH !== undefined && { POCKETSPHINX_STREAM_PATH: process.env.POCKETSPHINX_STREAM_PATH }),
});
const rows: { label: string; toText: number; median?: number; worst?: number; first: number | null; speaking: { median: number; worst: number } | null; errorRate: number }[] = [];
const bareBefore = await bareJfkSeconds();
try {
  console.log(`bare PocketSphinx on jfk.wav: ${bareBefore.toFixed(2)} s`);
  console.log("recording  notes  stop→text (s)  finish request (s)  captions' delay (s, median / worst)  first caption (s)  first words (s, median / worst)  WER");
  for (const minutes of LENGTHS) {
    const wav = await loopedSpeech(dir, minutes * 60);
    const logFrom = server.output().length;
    const result = await measure(server.url, wav, minutes * 60).catch((err: Error) => {
      // A machine too busy to recognize within the time limit: say so, and go on to the next length.
      console.log(`${`${minutes} min`.padEnd(11)}no result: ${err.message.split("\n")[0]}`);
      return null;
    });
    if (!result) continue;
    const { toText, lastPart, parts, captions, first, speaking, errorRate } = result;
    const delay = captions ? `${captions.median.toFixed(1)} / ${captions.worst.toFixed(1)} (${captions.phrases} phrases)` : "none";
    const label = minutes < 1 ? `${Math.round(minutes * 60)} s` : `${minutes} min`;
    const words = speaking ? `${speaking.median.toFixed(1)} / ${speaking.worst.toFixed(1)}` : "none";
    console.log(
      `${label.padEnd(11)}${String(parts).padEnd(7)}${toText.toFixed(1).padEnd(15)}${(lastPart?.toFixed(1) ?? "n/a").padEnd(20)}${delay.padEnd(38)}${(first?.toFixed(1) ?? "none").padEnd(19)}${words.padEnd(32)}${(errorRate * 100).toFixed(1)}%`,
    );
    rows.push({ label, toText, median: captions?.median, worst: captions?.worst, first, speaking, errorRate });
    // What went wrong on the server meanwhile, if anything (a cut that failed, a stream that fell behind).
    // This recording's: every error, refused request and line about its stream, and its last five warnings.
    const lines = server.output().slice(logFrom).split("\n");
    const shown = new Set([
      ...lines.filter((line) => /"level":"error"|stream|"status":[45]\d\d/.test(line)),
      ...lines.filter((line) => /"level":"warn"/.test(line)).slice(-5),
    ]);
    for (const line of lines.filter((l) => shown.has(l))) console.log(`  server: ${line.slice(0, 400)}`);
    // The server's own account of that Stop: seconds from the finish request to each step.
    const finished = server.output().split("\n").findLast((line) => line.includes('"live recording finished"'));
    if (finished) {
      const fields = JSON.parse(finished) as Record<string, unknown>;
      const steps = Object.entries(fields).filter(([key]) => key.endsWith("_sec") && key !== "duration_sec");
      console.log(`  finish, seconds to each step: ${steps.map(([key, value]) => `${key.slice(0, -4)} ${value}`).join(", ")} (${fields.pieces} pieces)`);
    }
  }
  const bare = (bareBefore + (await bareJfkSeconds())) / 2;
  const r = (x: number | undefined) => (x === undefined ? "n/a" : `${(x / bare).toFixed(2)}×`);
  console.log(`\n÷ bare PocketSphinx on jfk.wav (${bare.toFixed(2)} s, before and after); goals: Stop → text ≤ 0.4×, captions ≤ 0.4× median, ≤ 0.7× worst; words while speaking ≤ 0.3×`);
  console.log("recording  stop→text  captions' median  worst   first caption  first words' median  worst");
  for (const row of rows) {
    console.log(`${row.label.padEnd(11)}${r(row.toText).padEnd(11)}${r(row.median).padEnd(18)}${r(row.worst).padEnd(8)}${r(row.first ?? undefined).padEnd(15)}${r(row.speaking?.median).padEnd(21)}${r(row.speaking?.worst)}`);
  }
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
