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

test("parts are cut at pauses and uploaded while recording; after Stop only the last one is left", async () => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  // The first part is cut between 30 and 60 s, then recognized while the recording goes on.
  for (let waited = 0; (await transcriptCount(page)) === 0; waited += 2) {
    assert.ok(waited < 150, "a part was uploaded and transcribed while recording");
    await page.waitForTimeout(2000);
  }
  const beforeStop = await transcriptCount(page);
  assert.equal(await page.getByTestId("recorder-state").getAttribute("data-phase"), "recording", "still recording");
  await screenshot(page, "record-live-upload");
  await page.getByRole("button", { name: "Stop and save" }).click();
  await page.waitForURL("**/transcripts/recordings/*", { timeout: 180_000 });
  const recordingId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  const joined = (await (await page.request.get(`/api/v1/recordings/${encodeURIComponent(recordingId)}`)).json()) as {
    parts: { part: number; duration: number }[];
    text: string;
  };
  assert.ok(joined.parts.length >= beforeStop + 1, `the parts sent while recording (${beforeStop}), and the last one: ${joined.parts.length}`);
  assert.deepEqual(joined.parts.map((p) => p.part), [...Array(joined.parts.length).keys()], "every part once, in order");
  assert.ok(joined.parts[0].duration >= 29 && joined.parts[0].duration <= 61, `the first part is 30–60 s: ${joined.parts[0].duration}`);
  assert.match(joined.text, /country|fellow|americ/i, joined.text);
  await context.close();
});
