import { readFile } from "node:fs/promises";
import { test } from "@/tests/e2e/fixtures.ts";
import { unzipSync } from "fflate";
import assert from "node:assert/strict";
import type { Page } from "@playwright/test";
import { AUDIO_CACHE } from "@/app/_lib/cache-names.ts";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { assertAccessible, newPhone, noteCount, screenshot, signUp, waitForOfflineReady } from "@/tests/e2e/support.ts";

// Issue 24 in the browser: a note keeps its recording; it plays with the spoken word highlighted
// and followed; a tap on a word while it plays plays from there; once played it plays offline too;
// the note is renamed in one tap, and deleted with Undo.

async function openNewNote(page: Page): Promise<string> {
  await page.goto("/record");
  await page.getByLabel("Or choose an audio file").setInputFiles(JFK_WAV);
  await page.waitForURL(/\/transcripts\/(?!recordings)[^/]+$/, { timeout: 180_000 });
  await page.getByTestId("note-text").waitFor();
  await page.waitForFunction(() => !/^Cleaning up/.test(document.querySelector('[data-testid="optimization-status"]')?.textContent ?? ""), undefined, {
    timeout: 120_000,
  });
  return page.url().split("/").at(-1)!;
}

/** The index of the word highlighted as spoken (-1: none). */
const spokenIndex = (page: Page) =>
  page.evaluate(() => Number(document.querySelector('[data-testid="note-text"] [aria-current="true"]')?.getAttribute("data-w") ?? -1));

test("a note plays with the spoken word highlighted; a tapped word plays from there; rename; delete with Undo", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  const id = await openNewNote(page);
  const player = page.getByTestId("player");
  await player.waitFor();
  await assertAccessible(page, "note with player");

  // The recording is served to its owner as audio with ranges.
  const head = await page.request.get(`/api/v1/transcriptions/${id}/audio`, { headers: { range: "bytes=0-3" } });
  assert.equal(head.status(), 206);
  assert.equal(Buffer.from(await head.body()).toString("hex"), "1a45dfa3");

  await page.getByTestId("play").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="note-text"] [aria-current="true"]'), undefined, { timeout: 15_000 });
  const first = await spokenIndex(page);
  await page.waitForFunction((i) => Number(document.querySelector('[data-testid="note-text"] [aria-current="true"]')?.getAttribute("data-w")) > i, first, {
    timeout: 15_000,
  });
  assert.match(await page.getByTestId("player-time").textContent() ?? "", /^0:0[1-9]|^0:1\d/);
  await screenshot(page, "note-playing-light", { fullPage: false });

  // While it plays, a tap on a word near the end plays from that word.
  const words = await page.locator('[data-testid="note-text"] [data-w]').count();
  const target = page.locator('[data-testid="note-text"] [data-w]').nth(words - 2);
  const targetIndex = Number(await target.getAttribute("data-w"));
  await target.tap();
  await page.waitForFunction((i) => Number(document.querySelector('[data-testid="note-text"] [aria-current="true"]')?.getAttribute("data-w")) >= i, targetIndex, {
    timeout: 5_000,
  });
  assert.equal(await page.getByRole("dialog").count(), 0, "tapping a word while listening does not open Fix a word");
  await page.getByRole("button", { name: "Pause" }).click();
  await page.getByRole("button", { name: "Play the recording" }).waitFor();

  // Paused, a tap on a word opens "Fix a word" as before.
  await page.locator('[data-testid="note-text"] [data-w]').first().tap();
  await page.getByRole("dialog", { name: "Fix a word" }).waitFor();
  await page.getByRole("button", { name: "Close" }).click();

  // Speed and the dark look.
  await page.getByTestId("speed").click();
  assert.match((await page.getByTestId("speed").textContent()) ?? "", /1\.5×/);
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "note-playing-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });

  // Rename in one tap on the pencil.
  await page.getByTestId("rename").click();
  await page.getByTestId("rename-input").fill("Ask not");
  await page.getByTestId("rename-input").press("Enter");
  await page.getByRole("heading", { name: "Ask not" }).waitFor();
  await page.reload();
  await page.getByRole("heading", { name: "Ask not" }).waitFor();

  // Played once online, the recording plays offline too (the service worker kept it whole and
  // answers the player's ranges from it).
  await waitForOfflineReady(page);
  const audioUrl = `${app.url}/api/v1/transcriptions/${id}/audio`;
  const isKept = () => page.evaluate(async ([url, name]) => Boolean(await (await caches.open(name)).match(url)), [audioUrl, AUDIO_CACHE]);
  const keptAudioUrls = () => page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => r.url), AUDIO_CACHE);
  for (const deadline = Date.now() + 15_000; !(await isKept()) && Date.now() < deadline; ) await page.waitForTimeout(250);
  const keptUrls = await keptAudioUrls();
  assert.ok(await isKept(), `the recording played is kept on the phone (kept: ${keptUrls.join(", ") || "nothing"}; looked for ${audioUrl})`);
  await context.setOffline(true);
  await page.reload();
  await page.getByRole("heading", { name: "Ask not" }).waitFor();
  await page.getByTestId("play").click();
  await page.waitForFunction(() => /^0:0[1-9]/.test(document.querySelector('[data-testid="player-time"]')?.textContent ?? ""), undefined, { timeout: 15_000 });
  await page.getByRole("button", { name: "Pause" }).click();
  await context.setOffline(false);
  await page.reload();
  await page.getByRole("heading", { name: "Ask not" }).waitFor();

  // "Make posts" only opens the page of posts to be: nothing is stored until posts are written.
  await page.getByRole("button", { name: "Make posts from this note" }).click();
  await page.waitForURL(/\/content\/new\?note=/);
  await page.getByRole("heading", { name: "Make posts" }).waitFor();
  const items = (await (await page.request.get("/api/v1/content/items")).json()) as { items: unknown[] };
  assert.equal(items.items.length, 0, "looking at Make posts stored no item");
  await page.goBack();

  // Search finds the note by a word in it, the word marked; a word in no note says what was searched.
  const word = (await page.locator('[data-testid="note-text"] [data-w]').nth(words - 2).textContent())!.trim();
  await page.goto("/transcripts");
  await page.getByTestId("note-search").fill(word);
  await page.getByTestId("search-snippet").locator("mark").first().waitFor();
  assert.equal((await page.getByTestId("search-snippet").locator("mark").first().textContent())?.toLowerCase(), word.toLowerCase());
  await page.getByTestId("search-count").getByText("1 note").waitFor();
  await screenshot(page, "notes-search-light", { fullPage: false });
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "notes-search-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });
  await page.getByTestId("note-search").fill("zebraquagga");
  await page.getByText("No notes match “zebraquagga”").waitFor();
  await page.getByTestId("note-search").fill("");
  await page.getByRole("link", { name: /Ask not/ }).waitFor();

  // Export everything: a ZIP with the note (Markdown) and its recording.
  await page.goto("/settings");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export everything" }).click()]);
  const zip = await readFile((await download.path())!);
  assert.equal(zip.subarray(0, 4).toString("hex"), "504b0304", "a ZIP file");
  const names = Object.keys(unzipSync(new Uint8Array(zip)));
  assert.ok(names.some((n) => /^notes\/.+\.md$/.test(n)) && names.some((n) => /^audio\/.+\.webm$/.test(n)), names.join(", "));

  // Delete, then Undo: the note stays.
  await page.goto(`/transcripts/${id}`);
  assert.equal(await noteCount(page), 1);
  await page.getByTestId("note-more").click();
  await page.getByTestId("delete-note").click();
  await page.waitForURL(/\/transcripts$/);
  await page.getByRole("button", { name: "Undo" }).click();
  await page.waitForTimeout(7_000);
  assert.equal(await noteCount(page), 1, "Undo kept the note");

  // Delete for good: gone from the list and from the server, its audio too.
  await page.goto(`/transcripts/${id}`);
  await page.getByTestId("note-more").click();
  await page.getByTestId("delete-note").click();
  await page.waitForURL(/\/transcripts$/);
  await page.getByText("Note deleted.").waitFor();
  const deadline = Date.now() + 15_000;
  while ((await noteCount(page)) !== 0 && Date.now() < deadline) await page.waitForTimeout(250);
  assert.equal(await noteCount(page), 0, "the note was deleted after the Undo time");
  assert.equal((await page.request.get(`/api/v1/transcriptions/${id}/audio`)).status(), 404);
  assert.equal((await keptAudioUrls()).length, 0, "the deleted note's recording is no longer kept on the phone");
  await context.close();
});

test("Settings → language: auto by default; a language the recognizer cannot do is kept and explained", async ({ app }) => {
  const { context, page } = await newPhone(app);
  const email = await signUp(page);
  await page.goto("/settings");
  const select = page.getByTestId("language-setting");
  await select.waitFor();
  assert.equal(await select.inputValue(), "auto");
  // The transcription card and the language card are spaced, not touching (issue 69).
  const cards = page.getByTestId("transcription-settings").locator(":scope > *");
  const [first, second] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
  assert.ok(first && second && second.y - (first.y + first.height) >= 8, `a gap between the cards: ${JSON.stringify([first, second])}`);
  await select.selectOption("de");
  await page.getByTestId("language-unsupported").waitFor();
  assert.match((await page.getByTestId("language-unsupported").textContent()) ?? "", /English only/);
  await page.reload();
  assert.equal(await page.getByTestId("language-setting").inputValue(), "de", "the setting is saved");
  await page.getByTestId("language-unsupported").evaluate((el) => el.scrollIntoView({ block: "center" }));
  await screenshot(page, "settings-language-light", { fullPage: false });
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "settings-language-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });
  await assertAccessible(page, "settings with language");

  // Delete the account: only with the email typed again; then signed out, and the account is gone.
  await page.getByRole("button", { name: /Delete account/ }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.waitFor();
  await screenshot(page, "settings-delete-account", { fullPage: false });
  assert.equal(await dialog.getByRole("button", { name: "Delete my account" }).isDisabled(), true);
  await dialog.getByRole("textbox").fill(email);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL(/\/sign-in/, { timeout: 20_000 });
  assert.equal((await page.request.get("/api/v1/settings")).status(), 401);
  await context.close();
});
