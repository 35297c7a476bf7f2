import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "@/tests/e2e/fixtures.ts";
import type { Page } from "@playwright/test";
import { assertAccessible, assertTappable, newPhone, screenshot, signUp, uploadNote } from "@/tests/e2e/support.ts";

// Issue 33 item 8: one note out. Headless Chromium has no share sheet, so each file is saved as a
// download: Markdown, plain text, subtitles timed by the words, Word, and the recording itself.

async function saved(page: Page, kind: string): Promise<{ name: string; body: Buffer }> {
  await page.getByTestId("note-more").click();
  await page.getByTestId("share-file-note").click();
  const sheet = page.getByRole("dialog", { name: "Share this note" });
  await sheet.waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), sheet.getByTestId(`file-${kind}`).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), body: await readFile(path) };
}

test("share a note as Markdown, text, SRT, WebVTT, Word or its recording", async ({ app }) => {
  const { page } = await newPhone(app);
  await signUp(page);
  const id = await uploadNote(page, app);
  await page.goto(`/transcripts/${id}`);
  const title = ((await page.getByRole("heading", { level: 1 }).textContent()) ?? "").trim();

  await page.getByTestId("note-more").click();
  await page.getByTestId("share-file-note").click();
  await page.getByRole("dialog", { name: "Share this note" }).waitFor();
  await assertAccessible(page, "share this note");
  await screenshot(page, "share-note-light", { fullPage: false });
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "share-note-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });
  await page.keyboard.press("Escape");

  const md = await saved(page, "md");
  // The toast saying so rises above the note's actions: the next format is a tap away, not 8 s.
  await page.getByTestId("toast").getByText(/^Saved /).waitFor();
  await screenshot(page, "share-note-saved", { fullPage: false });
  await assertTappable(page.getByTestId("note-more"), "More");
  assert.match(md.name, /\.md$/);
  assert.ok(md.body.toString("utf8").startsWith(`# ${title}\n`), md.body.toString("utf8").slice(0, 80));
  const txt = await saved(page, "txt");
  assert.match(txt.name, /\.txt$/);
  const srt = (await saved(page, "srt")).body.toString("utf8");
  assert.match(srt, /^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n\S/);
  const vtt = (await saved(page, "vtt")).body.toString("utf8");
  assert.match(vtt, /^WEBVTT\n\n\d\d:\d\d:\d\d\.\d{3} --> /);
  const docx = await saved(page, "docx");
  assert.match(docx.name, /\.docx$/);
  assert.equal(docx.body.subarray(0, 2).toString("latin1"), "PK", "a Word file is a ZIP");
  const audio = await saved(page, "audio");
  assert.match(audio.name, /\.(webm|ogg)$/);
  assert.ok(audio.body.length > 10_000, `the recording: ${audio.body.length} bytes`);
});
