import { test as base } from "@/tests/e2e/fixtures.ts";
import assert from "node:assert/strict";
import path from "node:path";
import type { Page } from "@playwright/test";
import { ffmpegFixture, ffmpegFixtureFile, JFK_WAV } from "@/tests/support/audio.ts";
import { newPhone, signUp, waitForOfflineReady } from "@/tests/e2e/support.ts";

// Recognized while the person speaks: each second of audio goes to the server as it is recorded,
// the server recognizes every stretch of speech that ended in a pause, the Record screen shows
// the captions, and after Stop only the last seconds are left. The fake microphone plays the JFK
// sentence with a 1.5 s pause after each (as people pause between sentences), looped.

const test = base.extend({
  fakeAudio: [
    async ({}, use) => {
      const speech = await ffmpegFixtureFile("speech-with-pauses.wav", [
        "-i", JFK_WAV, "-f", "lavfi", "-t", "1.5", "-i", "anullsrc=r=16000:cl=mono",
        "-filter_complex", "[0:a]aresample=16000,aformat=channel_layouts=mono[s];[s][1:a]concat=n=2:v=0:a=1,aloop=loop=-1:size=2e9[out]",
        "-map", "[out]", "-t", "180", "-ac", "1", "-ar", "16000",
      ]);
      await use(speech);
    },
    { scope: "worker" },
  ],
});
// An audio quota, so that Settings shows it (it is far above what these tests keep).
test.use({ appEnv: { AUDIO_QUOTA_MB: "500" } });

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

/** The captions' text on the Record screen right now. */
const captionText = (page: Page) => page.getByTestId("live-captions").textContent().then((t) => (t ?? "").replace(/…|Listening/g, "").trim());

test("captions appear while recording; after Stop the note opens in moments, one note of every piece", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  await page.getByTestId("live-captions").getByText("Listening…").waitFor();
  // Each phrase's words show (muted, provisional) as soon as the speaker pauses after it, before
  // the piece that holds them (5–12 s of speech) is recognized.
  const provisional = page.getByTestId("live-captions-provisional");
  await provisional.filter({ hasText: /\w{2}/ }).waitFor({ timeout: 60_000 });
  const muted = await provisional.evaluate((el) => getComputedStyle(el).color);
  const plain = await page.getByTestId("live-captions").evaluate((el) => getComputedStyle(el).color);
  assert.notEqual(muted, plain, "provisional words are muted");
  await screen(page, "record-live-captions-provisional");
  // The server recognizes each stretch of speech that ended in a pause while the recording goes on.
  const started = Date.now();
  await page.waitForFunction(
    () => /country|fellow|americ|ask|nation|do for you/i.test(document.querySelector('[data-testid="live-captions"]')?.textContent ?? ""),
    undefined,
    { timeout: 60_000 },
  );
  console.log(`  first caption ${((Date.now() - started) / 1000).toFixed(1)} s after Start`);
  assert.equal(await page.getByTestId("recorder-state").getAttribute("data-phase"), "recording", "still recording");
  await screen(page, "record-live-captions");
  // More speech, more captions: the text grows while recording.
  const first = await captionText(page);
  await page.waitForFunction(
    (before) => (document.querySelector('[data-testid="live-captions"]')?.textContent ?? "").replace(/…|Listening/g, "").trim().length > before,
    first.length,
    { timeout: 60_000 },
  );
  await watchStages(page);
  const stopAt = Date.now();
  await page.getByRole("button", { name: "Stop and save" }).click();
  // The note opens by itself once its text is in: only the last seconds were left to recognize.
  await page.waitForURL(/\/transcripts\/[^/]+$/, { timeout: 120_000 });
  console.log(`  Stop → note ${((Date.now() - stopAt) / 1000).toFixed(1)} s`);
  const stages = await page.evaluate(() => (window as unknown as { stages: string[] }).stages);
  assert.equal(stages[0], "saving", `the card starts at saving: ${stages.join(" → ")}`);
  assert.ok(!stages.includes("offline") && !stages.includes("failed"), `online, nothing else: ${stages.join(" → ")}`);
  await page.getByTestId("note-text").waitFor();
  await screen(page, "record-note-opened");
  // One note, with the words of the whole recording, in order.
  const notes = (await (await page.request.get("/api/v1/transcriptions?limit=10")).json()) as { transcriptions: { id: string; text: string; duration: number }[] };
  assert.equal(notes.transcriptions.length, 1, "one recording, one note");
  const [note] = notes.transcriptions;
  assert.match(note.text, /country|fellow|americ/i, note.text);
  assert.ok(note.duration >= (stopAt - started) / 1000 - 2, `the note holds the whole recording: ${note.duration} s`);
  // Its recording is kept just after the text (the note says so until then) and plays: the player
  // comes by itself.
  await page.getByTestId("play").waitFor({ timeout: 60_000 });
  const audio = await page.request.get(`/api/v1/transcriptions/${note.id}/audio`);
  assert.equal(audio.status(), 200);
  await context.close();
});

test("a recording made offline becomes one note when the phone is back online", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await waitForOfflineReady(page);
  await context.setOffline(true);
  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  await page.waitForTimeout(12_000);
  // Offline, nothing is heard by the server: the captions say so (not "Listening…", issue 69) and
  // the recording goes on.
  assert.match((await page.getByTestId("captions-off").textContent()) ?? "", /^Offline: captions come back with the connection\. Your recording goes on here/);
  assert.equal(await page.getByTestId("live-captions").getByText("Listening…").count(), 0);
  await page.getByRole("button", { name: "Stop and save" }).click();
  await page.getByTestId("progress-card").getByText("Offline: saved on this phone").waitFor();
  assert.equal(await transcriptCount(page), 0);
  await context.setOffline(false);
  await page.waitForURL(/\/transcripts\/[^/]+$/, { timeout: 120_000 });
  const notes = (await (await page.request.get("/api/v1/transcriptions?limit=10")).json()) as { transcriptions: { text: string; duration: number }[] };
  assert.equal(notes.transcriptions.length, 1, "every second of it, one note");
  assert.ok(notes.transcriptions[0].duration >= 10, `about 12 s: ${notes.transcriptions[0].duration}`);
  assert.match(notes.transcriptions[0].text, /\w/, "recognized");
  await context.close();
});

test("a part whose upload fails is sent again; captions in dark mode", async ({ app }) => {
  const { context, page } = await newPhone(app, { colorScheme: "dark" });
  await signUp(page);
  // The first two sends of audio fail as a dropped connection would.
  let failed = 0;
  await page.route("**/api/v1/live-recordings/**", (route) => {
    if (route.request().method() === "PATCH" && failed < 2) {
      failed += 1;
      return route.abort("connectionreset");
    }
    return route.continue();
  });
  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  await page.waitForFunction(() => /\w{3}/.test((document.querySelector('[data-testid="live-captions"]')?.textContent ?? "").replace(/Listening/g, "")), undefined, {
    timeout: 60_000,
  });
  assert.equal(failed, 2, "the failed sends happened, and the audio got through after them");
  await screen(page, "record-live-captions-dark");
  await page.getByRole("button", { name: "Stop and save" }).click();
  await page.waitForURL(/\/transcripts\/[^/]+$/, { timeout: 120_000 });
  const notes = (await (await page.request.get("/api/v1/transcriptions?limit=10")).json()) as { transcriptions: { duration: number }[] };
  assert.equal(notes.transcriptions.length, 1);
  await context.close();
});

test("with the account's live recordings all open, a recording is kept on the phone and made a note at Stop; Settings shows the room taken", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  // Three live recordings the account left open (another phone, an API client): the most there may be.
  const header = [...(await ffmpegFixture("open-header.webm", ["-i", JFK_WAV, "-c:a", "libopus", "-f", "webm", "-live", "1"])).subarray(0, 3000)];
  const opened = await page.evaluate(async (bytes) => {
    const statuses: number[] = [];
    for (const id of ["elsewhere-1", "elsewhere-2", "elsewhere-3", "elsewhere-4"]) {
      const res = await fetch(`/api/v1/live-recordings/${id}?offset=0`, { method: "PATCH", body: new Uint8Array(bytes), headers: { "content-type": "audio/webm" } });
      statuses.push(res.status);
    }
    return statuses;
  }, header);
  assert.deepEqual(opened, [201, 201, 201, 429], "three open, the fourth refused");

  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  // Refused live: no captions this time, and the screen says the recording goes on.
  await page.getByTestId("captions-off").getByText(/too many recordings/i).waitFor({ timeout: 15_000 });
  await page.waitForTimeout(8000);
  assert.equal(await page.getByTestId("recorder-state").getAttribute("data-phase"), "recording", "still recording");
  await screen(page, "record-captions-off");
  await page.getByRole("button", { name: "Stop and save" }).click();
  // Sent whole, as a recording made offline is: one note of all of it.
  await page.waitForURL(/\/transcripts\/[^/]+$/, { timeout: 180_000 });
  const notes = (await (await page.request.get("/api/v1/transcriptions?limit=10")).json()) as { transcriptions: { text: string; duration: number }[] };
  assert.equal(notes.transcriptions.length, 1, "one note");
  assert.ok(notes.transcriptions[0].duration >= 8, `the whole recording: ${notes.transcriptions[0].duration} s`);
  assert.match(notes.transcriptions[0].text, /\w/, "recognized");

  // Settings → This phone: what the account's recordings take on the server, of its quota.
  await page.goto("/settings");
  await page.getByTestId("server-audio").getByText(/^On the server, your recordings take [\d.]+ MB of the 500 MB they may take\.$/).waitFor();
  await context.close();
});
