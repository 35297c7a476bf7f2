import { test } from "@/tests/e2e/fixtures.ts";
import assert from "node:assert/strict";
import type { Page } from "@playwright/test";
import { ffmpegFixture, JFK_WAV } from "@/tests/support/audio.ts";
import { COMMON_WORDS } from "@/lib/dictionary/common-words.ts";
import { assertAccessible, newPhone, noteEditor, noteText, screenshot, signUp, tapWordInNote, waitForOfflineReady } from "@/tests/e2e/support.ts";

async function record(page: Page, seconds: number): Promise<void> {
  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  await page.waitForTimeout(seconds * 1000);
  await page.getByRole("button", { name: "Stop and save" }).click();
  await page.getByTestId("recorder-state").getByText("Ready").waitFor();
}

async function transcriptCount(page: Page): Promise<number> {
  const res = await page.request.get("/api/v1/transcriptions?limit=100");
  assert.equal(res.status(), 200);
  return ((await res.json()) as { transcriptions: unknown[] }).transcriptions.length;
}

/** After Stop (or a picked file) the note opens by itself once its text is ready; returns the text shown. */
async function waitForNote(page: Page): Promise<string> {
  await page.waitForURL(/\/transcripts\/(?!recordings)[^/]+$/, { timeout: 180_000 });
  await page.getByTestId("note-text").waitFor();
  // The note opens as soon as the words are in; its clean-up finishes there (and may change the
  // text shown): the tests below read and fix words, so they wait for it.
  await page.waitForFunction(() => !/^Cleaning up/.test(document.querySelector('[data-testid="optimization-status"]')?.textContent ?? ""), undefined, {
    timeout: 120_000,
  });
  return noteText(page);
}

/** The progress card is on screen (not below the fold) and names a stage. */
async function assertProgressInView(page: Page): Promise<void> {
  const card = page.getByTestId("progress-card");
  await card.waitFor();
  const box = await card.boundingBox();
  assert.ok(box && box.y >= 0 && box.y < 740 - 64, `the progress card is in view above the tab bar: ${JSON.stringify(box)}`);
}

test("record from the microphone, see the transcript; a dictionary word changes the next one", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await assertAccessible(page, "record");
  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  // The level meter moves with the (fake) microphone; pause stops the clock.
  await page.waitForFunction(() => Number(document.querySelector('[role="meter"]')?.getAttribute("aria-valuenow")) > 0, undefined, { timeout: 10_000 });
  await screenshot(page, "record-recording");
  await page.getByRole("button", { name: "Pause" }).click();
  const paused = await page.getByRole("timer").textContent();
  await page.waitForTimeout(1500);
  assert.equal(await page.getByRole("timer").textContent(), paused);
  await page.getByRole("button", { name: "Resume" }).click();
  await page.waitForTimeout(22_000); // two passes of the looping 11 s file: whole sentences whatever the start
  await page.getByRole("button", { name: "Stop and save" }).click();
  await assertProgressInView(page);
  assert.equal(await page.getByTestId("progress-card").getByText(/Offline/).count(), 0, "online, the card never says offline");
  await screenshot(page, "record-progress");

  // The fake microphone loops the JFK speech from wherever it happens to be; PocketSphinx on
  // twice-compressed audio is rough, so any of the speech's distinctive words will do here.
  const recorded = await waitForNote(page);
  // The fake microphone loops the JFK speech from wherever it happens to be, recognized in pieces
  // while recording (PocketSphinx on pieces of it is rough): words came through. The same speech
  // from a file, below, checks the words themselves.
  assert.ok((recorded.match(/\p{L}+/gu) ?? []).length >= 8, `the recording should carry speech: ${recorded}`);
  // Heard by the basic recognizer: the note says so at once, in a line or two, also while the second
  // pass hears the whole recording again (issue 69 item 10: it came only after the pass, about 2
  // minutes, in four lines); the next step only where there is one (none here: no accurate recognizer).
  const basic = page.getByTestId("basic-recognizer");
  await basic.getByText(/^Heard by the basic recognizer: some words may be off\.( The accurate recognizer is downloading[^.]*\.)? Transcription settings$/).waitFor({ timeout: 30_000 });
  // Lines of text, by where their words sit (the link is a thumb high, so the box's height is not it).
  const lines = await basic.evaluate((line) => {
    const bottoms: number[] = [];
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) if (rect.width && !bottoms.some((b) => Math.abs(b - rect.bottom) < 6)) bottoms.push(rect.bottom);
    }
    return bottoms.length;
  });
  assert.ok(lines <= 2, `the notice runs to ${lines} lines`);
  assert.equal(await basic.getByRole("link", { name: "Transcription settings" }).getAttribute("href"), "/settings#transcription");
  // The app's link colour, not the browser's default blue (issue 69).
  const [linkColor, primary] = await basic.getByRole("link", { name: "Transcription settings" }).evaluate((a) => {
    const probe = document.createElement("span");
    probe.style.color = "var(--primary)";
    a.parentElement!.append(probe);
    const colors = [getComputedStyle(a).color, getComputedStyle(probe).color];
    probe.remove();
    return colors;
  });
  assert.equal(linkColor, primary);
  await assertAccessible(page, "transcript");
  await screenshot(page, "transcript");
  await page.emulateMedia({ colorScheme: "dark" });
  await basic.scrollIntoViewIfNeeded();
  await screenshot(page, "transcript-basic-recognizer-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });

  // The same speech from a file (deterministic): tap a word in the note, fix it for good.
  await page.goto("/record");
  await page.getByLabel("Or choose an audio file").setInputFiles(JFK_WAV);
  const first = await waitForNote(page);
  const noteId = new URL(page.url()).pathname.split("/").pop()!;
  assert.match(first, /country/i, first);
  const start = first.toLowerCase().indexOf("country");
  const word = first.slice(start, start + "country".length);
  // One tap on the word opens the fix (no selection, no second button).
  await tapWordInNote(page, word);
  await page.getByRole("dialog", { name: "Fix a word" }).waitFor();
  assert.equal(await page.getByLabel("Heard as").inputValue(), word);
  // A common word ("country", among the most spoken) opens on the place tapped (issue 57); every
  // note from now on is the person's choice, and it warns.
  await page.getByRole("radio", { name: /Only this one/, checked: true }).waitFor();
  await page.getByLabel("Write it as").fill("Nation");
  await page.getByRole("radio", { name: /In every note from now on/ }).check();
  await page.getByTestId("everyday-warning").getByText(/“country” is a common word/i).waitFor();
  await screenshot(page, "note-fix-word");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "note-fix-word-common-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });
  await page.getByRole("button", { name: "Save and fix" }).click();
  await page.getByTestId("toast").getByText(/will be written “Nation” from now on; fixed \d+ place/).waitFor();
  // The toast (outside the app frame) is set in the app's font, not the browser's default serif.
  const fonts = await page.evaluate(() => [document.querySelector('[data-testid="toast"]')!, document.querySelector("h1")!].map((el) => getComputedStyle(el).fontFamily));
  assert.equal(fonts[0], fonts[1], "the toast's font is the page's");
  // This note is corrected now, on screen and on the server.
  await page.getByTestId("save-state").getByText("All changes saved").waitFor();
  const fixed = await noteText(page);
  assert.match(fixed, /Nation/, fixed);
  assert.doesNotMatch(fixed, /\bcountry\b/i, fixed);
  const saved = (await (await page.request.get(`/api/v1/transcriptions/${noteId}`)).json()) as { text: string };
  assert.equal(saved.text, fixed, "the correction was saved");

  // Learn from an edit: a word respelled in the editor comes back as a one-tap dictionary offer
  // (respelled into a word that sounds the same and is not a common one, as a name would be).
  const heard = [...fixed.matchAll(/\p{L}{3,}/gu)].map((m) => m[0]).find((w) => w !== "Nation");
  assert.ok(heard, `a word to respell in: ${fixed}`);
  const respelled = `${heard}h`;
  assert.ok(!COMMON_WORDS.has(respelled.toLowerCase()));
  const editor = await noteEditor(page);
  await editor.fill(fixed.replace(heard, respelled));
  await page.getByRole("button", { name: "Done" }).click();
  const offer = page.getByRole("region", { name: "Spelling suggestions" }).getByRole("button", { name: `“${heard}” → “${respelled}”` });
  await offer.waitFor();
  await screenshot(page, "note-suggestion");
  await offer.click();
  await page.getByTestId("toast").getByText(new RegExp(`“${heard}” will be written “${respelled}” from now on`, "i")).waitFor();
  const entries = (await (await page.request.get("/api/v1/dictionary")).json()) as { entries: { correct_spelling: string }[] };
  assert.ok(entries.entries.some((e) => e.correct_spelling === respelled), "the offer was added to the dictionary");

  // An everyday word ("your", in "ask not what your country…") is fixed in this note only unless
  // the person insists, and insisting says how many of their notes hold it.
  const everyday = /\b(your|what|you|can|for|not|ask|do)\b/i.exec(await noteText(page))![0];
  await tapWordInNote(page, everyday);
  await page.getByRole("dialog", { name: "Fix a word" }).waitFor();
  assert.equal(await page.getByRole("radio", { name: /Only in this note/ }).isChecked(), true, `"${everyday}" is an everyday word`);
  await page.getByLabel("Write it as").fill("Mighty");
  await screenshot(page, "note-fix-everyday-word");
  await page.getByRole("radio", { name: /In every note from now on/ }).check();
  await page.getByTestId("everyday-warning").getByText(new RegExp(`“${everyday}” is a common word, in [12] of your notes`)).waitFor();
  await screenshot(page, "note-fix-everyday-word-warning");
  await page.getByRole("radio", { name: /Only in this note/ }).check();
  await page.getByRole("button", { name: "Fix in this note" }).click();
  await page.getByTestId("toast").getByText(/^Fixed \d+ places? in this note\.$/).waitFor();
  await page.getByTestId("save-state").getByText("All changes saved").waitFor();
  assert.match(await noteText(page), /Mighty/);
  const learnt = (await (await page.request.get("/api/v1/dictionary")).json()) as { entries: { misspelling: string }[] };
  assert.ok(!learnt.entries.some((e) => e.misspelling.toLowerCase() === everyday.toLowerCase()), "an everyday word fixed in one note is not learnt");
  // A fix made in the sheet, and its Undo, teach nothing: no "Always spell these your way?", and
  // never the fix's reverse ("Mighty" → the word it was).
  const offers = page.getByRole("region", { name: "Spelling suggestions" });
  assert.equal(await offers.count(), 0, "no offer after a fix with its own scope");
  await page.getByTestId("toast").getByRole("button", { name: "Undo" }).last().click();
  await page.getByTestId("toast").getByText("Undone: the note is as it was.").waitFor();
  await page.getByTestId("save-state").getByText("All changes saved").waitFor();
  assert.doesNotMatch(await noteText(page), /Mighty/);
  assert.equal(await offers.count(), 0, "no reverse entry after Undo");

  // Settings → Dictionary lists the newest first: the word just learnt from the edit, then "Nation".
  await page.goto("/dictionary");
  const rows = page.getByTestId("dictionary-entry");
  await rows.first().waitFor();
  assert.match((await rows.first().textContent()) ?? "", new RegExp(respelled));
  assert.match((await rows.nth(1).textContent()) ?? "", /Nation/);
  await assertAccessible(page, "dictionary");
  await screenshot(page, "dictionary");

  // The next transcript of the same file uses the new spelling.
  await page.goto("/record");
  await page.getByLabel("Or choose an audio file").setInputFiles(JFK_WAV);
  const second = await waitForNote(page);
  assert.match(second, /Nation/, second);
  assert.doesNotMatch(second, /country/i, second);

  await page.goto("/transcripts");
  const list = page.getByRole("list", { name: "Notes" });
  await list.waitFor();
  assert.equal(await list.getByRole("listitem").count(), 3);
  await assertAccessible(page, "transcripts");
  await screenshot(page, "transcripts");

  // The dictionary page: search, edit, delete.
  await page.goto("/dictionary");
  await page.getByLabel("Search").fill("zzz");
  await page.getByText("No entry matches.").waitFor();
  await page.getByLabel("Search").fill("COUN");
  await page.getByRole("button", { name: "Edit country" }).click();
  await page.getByLabel("Write as").fill("Nation!");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByTestId("dictionary-entry").getByText("Nation!").waitFor();
  // Delete at once, with an Undo that brings the entry back.
  await page.getByRole("button", { name: "Delete country" }).click();
  await page.getByText("No entry matches.").waitFor(); // the entry learnt from the edit stays
  await page.getByTestId("toast").getByRole("button", { name: "Undo" }).click();
  await page.getByTestId("dictionary-entry").getByText("Nation!").waitFor();
  await page.getByRole("button", { name: "Delete country" }).click();
  await page.getByText("No entry matches.").waitFor();
  await page.getByLabel("Search").fill("");
  assert.equal(await page.getByRole("button", { name: /^Delete / }).count(), 1);
  await context.close();
});

test("offline: a recording waits in the queue across a reload and uploads exactly once when back online", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await waitForOfflineReady(page);
  assert.equal(await transcriptCount(page), 0);

  await context.setOffline(true);
  await record(page, 6);
  const item = page.getByTestId("upload-item").first();
  await item.and(page.locator('[data-status="pending"]')).waitFor();
  await page.getByTestId("progress-card").getByText("Offline: saved on this phone").waitFor();
  await screenshot(page, "queue-offline");

  await page.reload();
  await page.getByTestId("connectivity").getByText(/Offline/).waitFor();
  await page.locator('[data-testid="upload-item"][data-status="pending"]').waitFor();
  assert.equal(await page.getByTestId("upload-item").count(), 1);
  // Its badge is whole at 360 px (issue 57: "Waiting to upl…" beside three buttons).
  const badgeCut = await page.getByTestId("upload-item").getByText("Waiting to upload").evaluate((el) => el.scrollWidth > el.clientWidth);
  assert.equal(badgeCut, false, "the badge is not cut");
  await screenshot(page, "queue-offline-reloaded");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await screenshot(page, "queue-offline-reloaded-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });
  // Not uploaded yet, offline: it plays from this phone.
  await page.getByTestId("listen-local").click();
  await page.getByRole("button", { name: /^Stop / }).waitFor();
  await page.getByRole("button", { name: /^Stop / }).click();
  await page.getByRole("button", { name: /^Listen to / }).waitFor();

  await context.setOffline(false);
  await page.locator('[data-testid="upload-item"][data-status="done"]').waitFor({ timeout: 120_000 });
  // Focus and visibility triggers must not upload it again.
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await page.evaluate(() => window.dispatchEvent(new Event("online")));
  await page.waitForTimeout(2000);
  assert.equal(await transcriptCount(page), 1);
  // Recorded offline, sent as a live recording once back online: one note of its own, not parts.
  const [uploaded] = ((await (await page.request.get("/api/v1/transcriptions?limit=1")).json()) as {
    transcriptions: { id: string; duration: number; recording: { id: string; part: number } | null }[];
  }).transcriptions;
  assert.equal(uploaded.recording, null, "one note, not a part of a recording");
  assert.ok(uploaded.duration >= 4, `the whole recording: ${uploaded.duration} s`);

  // The queue belongs to its user: someone else signing in on this device does not see it.
  await page.goto("/settings");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/sign-in");
  await signUp(page);
  await page.getByText("Nothing waiting to upload.").waitFor();
  await context.close();
});

test("a long recording is split at silences in the worker, every part uploaded once and joined in order by the server", async ({ app }) => {
  // 130 s: the JFK sentence ten times, two seconds of silence after each. The worker cuts near every
  // 60 s, at the longest silence of the 20 s before (51 s and 103 s here): three parts, the fewest that
  // have a part between two cuts. (It was 182 s, four parts: each second is heard by PocketSphinx and
  // converted by ffmpeg.wasm, and this test was the longest of the browser tests.)
  const long = await ffmpegFixture("long-speech.wav", [
    "-i", JFK_WAV, "-f", "lavfi", "-t", "2", "-i", "anullsrc=r=16000:cl=mono",
    "-filter_complex", "[0:a]aresample=16000,aformat=channel_layouts=mono[s];[s][1:a]concat=n=2:v=0:a=1,aloop=loop=9:size=2e9[out]",
    "-map", "[out]", "-ac", "1", "-ar", "16000",
  ]);
  const { context, page } = await newPhone(app);
  await signUp(page);
  // The page must stay responsive while ffmpeg runs: a timer on the page keeps ticking.
  await page.evaluate(() => {
    (window as unknown as { ticks: number }).ticks = 0;
    setInterval(() => (window as unknown as { ticks: number }).ticks++, 100);
  });
  await page.getByLabel("Or choose an audio file").setInputFiles({ name: "long-speech.wav", mimeType: "audio/wav", buffer: long });
  await page.getByTestId("preprocess-progress").waitFor();
  await screenshot(page, "record-preprocessing");
  // The progress card counts the parts as they go up.
  const partOf = page.getByTestId("progress-card").getByText(/part \d+ of \d+/).first();
  await partOf.waitFor({ timeout: 180_000 });
  const ticks = await page.evaluate(() => (window as unknown as { ticks: number }).ticks);
  assert.ok(ticks > 20, `the page's timers kept running during preprocessing (${ticks} ticks)`);
  await screenshot(page, "record-uploading-parts");
  const parts = Number(/part \d+ of (\d+)/.exec((await partOf.textContent()) ?? "")?.[1]);
  assert.ok(parts >= 3, `expected at least 3 parts for 130 s, got ${parts}`);
  // 'On this phone' has the recording once, its parts as progress within it.
  assert.equal(await page.getByTestId("upload-item").count(), 1, "one row for the recording, not one per part");
  const row = page.getByTestId("upload-item");
  assert.equal(await row.getAttribute("data-parts"), String(parts));
  assert.match((await row.getByTestId("upload-detail").textContent()) ?? "", new RegExp(`part \\d+ of ${parts}|\\d+ of ${parts} parts uploaded`));
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, "queue-uploading-parts");

  // The whole note opens by itself once every part is text.
  await page.waitForURL("**/transcripts/recordings/*", { timeout: 300_000 });
  assert.equal(await transcriptCount(page), parts);
  const recordingId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  await page.getByTestId("note-text").waitFor();
  // The server joined the parts (nothing stitched from this browser's IndexedDB): read it as any device would.
  const fromServer = await page.evaluate(async (id) => {
    const res = await fetch(`/api/v1/recordings/${encodeURIComponent(id)}`, { credentials: "same-origin" });
    return { status: res.status, body: (await res.json()) as { parts_received: number; text: string; duration: number; parts: { part: number; transcription_id: string }[] } };
  }, recordingId);
  assert.equal(fromServer.status, 200);
  assert.equal(fromServer.body.parts_received, parts);
  assert.deepEqual(fromServer.body.parts.map((p) => p.part), [...Array(parts).keys()], "every part once, in order, numbered from 0");
  // "As recognized": the parts' recognizer text, in order.
  await page.getByRole("tab", { name: "As recognized" }).click();
  const joined = (await page.getByTestId("joined-text").textContent()) ?? "";
  const raw = await Promise.all(
    fromServer.body.parts.map(async (p) => ((await (await page.request.get(`/api/v1/transcriptions/${p.transcription_id}`)).json()) as { raw_text: string }).raw_text),
  );
  assert.equal(joined, raw.filter(Boolean).join(" "), "the page shows the parts' recognized text, joined in order");
  await page.getByRole("tab", { name: "Text" }).click();
  assert.equal(await page.getByRole("link", { name: /^Part \d+/ }).count(), parts);
  assert.equal(await page.getByTestId("joined-local-part").count(), 0, "no part is left waiting on the device");
  // Named and summed up as any note: the first part's key phrase, every part's summary in order
  // (as the server has them once the page has caught up with the parts' clean-ups).
  type PartNote = { insights: { title: string; summary: string } | null };
  const readParts = () => Promise.all(fromServer.body.parts.map(async (p) => (await (await page.request.get(`/api/v1/transcriptions/${p.transcription_id}`)).json()) as PartNote));
  const shownInsights = async () => [await page.getByRole("heading", { level: 1 }).textContent(), await page.getByTestId("insights-summary").textContent()];
  // (A part's summary said word for word by an earlier part is not repeated.)
  const key = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  const summaries = (notes: PartNote[]) =>
    notes.map((n) => n.insights?.summary ?? "").filter((text, i, all) => key(text) && all.findIndex((other) => key(other) === key(text)) === i);
  const expected = (notes: PartNote[]) => [notes[0].insights?.title, summaries(notes).join(" ")];
  let [shownNow, partNotes] = [await shownInsights(), await readParts()];
  for (let tries = 0; tries < 120 && JSON.stringify(shownNow) !== JSON.stringify(expected(partNotes)); tries++) {
    await page.waitForTimeout(500);
    [shownNow, partNotes] = [await shownInsights(), await readParts()];
  }
  assert.deepEqual(shownNow, expected(partNotes));
  assert.ok(partNotes[0].insights?.title, "the first part has a key phrase");
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "recording-joined-light", { fullPage: false });
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "recording-joined-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });
  // Nothing lost or doubled at the cuts: the parts add up to the 130 s of the file.
  const summary = (await page.getByTestId("joined-duration").textContent()) ?? "";
  const [, minutes, secs] = /^(\d+):(\d{2})$/.exec(summary) ?? [];
  assert.ok(Math.abs(Number(minutes) * 60 + Number(secs) - 130) <= 3, `the parts should add up to 130 s: ${summary}`);
  assert.ok(Math.abs(fromServer.body.duration - 130) <= 3, `the server's duration: ${fromServer.body.duration}`);
  // And it is the speech, all through (PocketSphinx catches "country" in most of the 20 places; the
  // bar is the one of 10 in 28 that the 182 s file had).
  const mentions = joined.match(/country/gi)?.length ?? 0;
  assert.ok(mentions >= 7, `the stitched transcript carries the speech: ${mentions} × "country" in ${joined}`);
  await assertAccessible(page, "joined transcript");
  await screenshot(page, "transcript-joined");

  // One tap on a word fixes it in every part of the recording.
  const shown = await noteText(page);
  const word = /country/i.exec(shown)![0];
  await tapWordInNote(page, word);
  await page.getByRole("dialog", { name: "Fix a word" }).waitFor();
  await page.getByLabel("Write it as").fill("Nation");
  // A common word opens on the place tapped; every note (and every part) is chosen.
  await page.getByRole("radio", { name: /Only this one/, checked: true }).waitFor();
  await page.getByRole("radio", { name: /In every note from now on/ }).check();
  await page.getByRole("button", { name: "Save and fix" }).click();
  await page.getByTestId("toast").getByText(/will be written “Nation” from now on; fixed \d+ places here/).waitFor();
  const fixedAll = await noteText(page);
  assert.doesNotMatch(fixedAll, /\bcountry\b/i, fixedAll);
  assert.match(fixedAll, /Nation/);

  // The transcripts list shows the recording once, linking to the joined view.
  await page.goto("/transcripts");
  const list = page.getByRole("list", { name: "Notes" });
  await list.waitFor();
  assert.equal(await list.getByRole("listitem").count(), 1);
  assert.match((await list.getByTestId("recording-entry").textContent()) ?? "", new RegExp(`${parts} parts`));
  const entryText = (await list.getByTestId("recording-entry").textContent()) ?? "";
  assert.ok(entryText.startsWith((await readParts())[0].insights!.title), `listed by the first part's key phrase: ${entryText}`);
  await list.getByRole("link").click();
  await page.waitForURL(`**/transcripts/recordings/${recordingId}`);
  assert.equal(await noteText(page), fixedAll, "the fixed text, read again");
  await context.close();
});

test("a recording cut off by closing the tab is recovered from IndexedDB on the next visit", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  await page.waitForTimeout(8000);
  await page.close(); // no stop(), no unload handler: as if the tab were killed

  const next = await context.newPage();
  await next.goto("/record");
  await next.getByText("Recovered 1 interrupted recording; queued for upload.").waitFor({ timeout: 30_000 });
  const item = next.locator('[data-testid="upload-item"][data-status="done"]');
  await item.waitFor({ timeout: 120_000 });
  const res = await next.request.get("/api/v1/transcriptions?limit=10");
  const [transcription] = ((await res.json()) as { transcriptions: { duration: number }[] }).transcriptions;
  // At most a couple of seconds lost: the chunks are saved every second.
  assert.ok(transcription.duration >= 5, `recovered ${transcription.duration} s of about 8 s`);
  await context.close();
});
