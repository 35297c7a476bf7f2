import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { ffmpegFixture, JFK_WAV } from "@/tests/support/audio.ts";
import { newPhone, screenshot, signUp, startApp, type App } from "@/tests/e2e/support.ts";

// Live upload: while recording, a part is cut at a pause every 30–60 s and uploaded at once, so
// after Stop only the last part is left. The fake microphone plays the JFK sentence with a 1.5 s
// pause after each (as people pause between sentences), looped.

let app: App;
let dir: string;
before(async () => {
  const speech = await ffmpegFixture("speech-with-pauses.wav", [
    "-i", JFK_WAV, "-f", "lavfi", "-t", "1.5", "-i", "anullsrc=r=16000:cl=mono",
    "-filter_complex", "[0:a]aresample=16000,aformat=channel_layouts=mono[s];[s][1:a]concat=n=2:v=0:a=1,aloop=loop=-1:size=2e9[out]",
    "-map", "[out]", "-t", "180", "-ac", "1", "-ar", "16000",
  ]);
  dir = await mkdtemp(path.join(tmpdir(), "vd-e2e-live-"));
  const fakeAudio = path.join(dir, "speech.wav");
  await writeFile(fakeAudio, speech);
  app = await startApp({ fakeAudio });
});
after(async () => {
  await app?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function transcriptCount(page: Page): Promise<number> {
  const res = await page.request.get("/api/v1/transcriptions?limit=100");
  return ((await res.json()) as { transcriptions: unknown[] }).transcriptions.length;
}

/** Every stage the progress card shows, in order, as the page saw it (a MutationObserver, so none is missed). */
async function watchStages(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { stages: string[] }).stages = seen;
    // From the records, not the page as it is now: the card at "done" may be gone (the note opening) by the time this runs.
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.type === "attributes" ? [record.target] : [...record.addedNodes]) {
          if (!(node instanceof Element)) continue;
          const card = node.matches('[data-testid="progress-card"]') ? node : node.querySelector('[data-testid="progress-card"]');
          const stage = card?.getAttribute("data-stage");
          if (stage && seen.at(-1) !== stage) seen.push(stage);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-stage"] });
  });
}

/** What the phone's screen shows (the viewport, not the whole page): the card must be in it. */
async function screen(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(import.meta.dirname, "screenshots", `${name}.png`), animations: "disabled" });
}

test("parts are cut at pauses and uploaded while recording; after Stop only the last one is left", async () => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  // The first part is cut between 30 and 60 s, then recognized while the recording goes on.
  for (let waited = 0; (await transcriptCount(page)) === 0; waited += 2) {
    assert.ok(waited < 240, "a part was uploaded and transcribed while recording");
    await page.waitForTimeout(2000);
  }
  const beforeStop = await transcriptCount(page);
  assert.equal(await page.getByTestId("recorder-state").getAttribute("data-phase"), "recording", "still recording");
  // 'On this phone' shows the recording once, however many of its parts went up already.
  const row = page.getByTestId("upload-item");
  await row.getByText(/already text/).waitFor();
  assert.equal(await row.count(), 1, "one row for the recording, not one per part");
  await screenshot(page, "record-live-upload");
  await watchStages(page);
  await page.getByRole("button", { name: "Stop and save" }).click();
  // The card is on screen right after Stop, without scrolling; take it at each stage it goes through.
  const card = page.getByTestId("progress-card");
  await card.waitFor();
  const shot = new Set<string>();
  for (const deadline = Date.now() + 180_000; !page.url().includes("/transcripts/"); ) {
    assert.ok(Date.now() < deadline, "the note opened by itself within 3 minutes of Stop");
    const stage = await card.getAttribute("data-stage", { timeout: 1000 }).catch(() => null);
    if (stage && !shot.has(stage)) {
      shot.add(stage);
      const box = await card.boundingBox();
      assert.ok(box && box.y >= 0 && box.y + Math.min(box.height, 120) <= 740 - 64, `the card is in view at ${stage}: ${JSON.stringify(box)}`);
      await screen(page, `record-stage-${stage}`);
    }
    await page.waitForTimeout(100);
  }
  // The note opens by itself once every part is text (no tap, no waiting for the clean-up).
  await page.waitForURL("**/transcripts/recordings/*", { timeout: 180_000 });
  const stages = await page.evaluate(() => (window as unknown as { stages: string[] }).stages);
  assert.equal(stages[0], "saving", `the card starts at saving: ${stages.join(" → ")}`);
  assert.equal(stages.at(-1), "done", `and ends at done: ${stages.join(" → ")}`);
  assert.ok(!stages.includes("offline") && !stages.includes("failed"), `online, nothing else: ${stages.join(" → ")}`);
  const recordingId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  await page.getByTestId("note-text").waitFor();
  await screen(page, "record-note-opened");
  const joined = (await (await page.request.get(`/api/v1/recordings/${encodeURIComponent(recordingId)}`)).json()) as {
    parts: { part: number; duration: number }[];
    text: string;
  };
  assert.ok(joined.parts.length >= beforeStop + 1, `the parts sent while recording (${beforeStop}), and the last one: ${joined.parts.length}`);
  assert.deepEqual(joined.parts.map((p) => p.part), [...Array(joined.parts.length).keys()], "every part once, in order");
  assert.ok(joined.parts[0].duration >= 29 && joined.parts[0].duration <= 61, `the first part is 30–60 s: ${joined.parts[0].duration}`);
  assert.match(joined.text, /country|fellow|americ/i, joined.text);

  // Back on Record, 'On this phone' still has one row for it: its text is ready, with a link to the whole note.
  await page.goto("/record");
  const done = page.locator('[data-testid="upload-item"][data-status="done"]');
  await done.waitFor();
  assert.equal(await page.getByTestId("upload-item").count(), 1);
  assert.equal(await done.getAttribute("data-parts"), String(joined.parts.length));
  assert.match((await done.textContent()) ?? "", new RegExp(`Text ready.*${joined.parts.length} parts`));
  assert.equal(await done.getByRole("link", { name: "Open note" }).getAttribute("href"), `/transcripts/recordings/${encodeURIComponent(recordingId)}`);
  await page.getByRole("heading", { name: "On this phone" }).scrollIntoViewIfNeeded();
  await screen(page, "queue-recording-done");
  await context.close();
});
