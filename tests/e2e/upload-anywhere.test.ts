import { test } from "@/tests/e2e/fixtures.ts";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { newPhone, noteCount, notesArrive, noteEditor, noteText, screenshot, signUp, waitForOfflineReady } from "@/tests/e2e/support.ts";

// "Uploads by itself… you can close the app": a recording made offline goes up from whatever page
// of the app is open (not only Record), exactly once; and a note changed online reads the same
// when it is opened again offline.

/** Records a few seconds offline on Record: the recording waits in the phone's queue. */
async function recordOffline(page: Page): Promise<void> {
  const nav = page.getByRole("navigation", { name: "Main" });
  // Both pages once online, so the service worker keeps them for offline use.
  await nav.getByRole("link", { name: "Notes" }).click();
  await page.waitForURL("**/transcripts");
  await waitForOfflineReady(page);
  await nav.getByRole("link", { name: "Record" }).click();
  await page.waitForURL("**/record");
  await waitForOfflineReady(page);
  await page.context().setOffline(true);
  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  await page.waitForTimeout(4000);
  await page.getByRole("button", { name: "Stop and save" }).click();
  await page.getByTestId("progress-card").waitFor();
  await page.getByTestId("progress-card").getByText(/offline|waiting/i).waitFor({ timeout: 15_000 });
  await screenshot(page, "record-queued-offline");
}

test("a recording made offline uploads once from Notes when the phone is back online", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await recordOffline(page);
  // The person leaves Record for Notes (a client-side move, still offline), then the network returns.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Notes" }).click();
  await page.waitForURL("**/transcripts");
  await page.waitForTimeout(1000);
  await context.setOffline(false);
  const tookMs = await notesArrive(page, 1, 60_000);
  // The list shows it without a reload, and it stays one note.
  await page.getByRole("list", { name: "Notes" }).getByRole("listitem").first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(3000);
  assert.equal(await noteCount(page), 1, `exactly one note (it went up after ${tookMs} ms)`);
  await screenshot(page, "notes-after-offline-upload");
  await context.close();
});

test("closed with a recording in its queue, the app opened again on Notes uploads it once", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await recordOffline(page);
  await page.close(); // the app is closed while offline
  await context.setOffline(false);
  const reopened = await context.newPage();
  await reopened.goto("/transcripts");
  await notesArrive(reopened, 1, 60_000);
  await reopened.waitForTimeout(3000);
  assert.equal(await noteCount(reopened), 1, "exactly one note");
  await context.close();
});

test("a note fixed online and opened again offline shows the fixed text, and says it is an offline copy", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  const uploaded = await page.request.post("/transcribe", {
    headers: { origin: app.url },
    multipart: { audio: { name: "jfk.wav", mimeType: "audio/wav", buffer: await readFile(JFK_WAV) } },
    timeout: 180_000,
  });
  const note = (await uploaded.json()) as { id: string };
  assert.ok(note.id);
  // Opened once online: the service worker keeps this page (with the text it was rendered with).
  await page.goto(`/transcripts/${note.id}`);
  const before = await noteText(page);
  await waitForOfflineReady(page);
  // Fixed online.
  const fixed = `${before} Fixed on the bus.`;
  await (await noteEditor(page)).fill(fixed);
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByTestId("save-state").getByText("All changes saved").waitFor();
  // Offline, opened again: the page is the service worker's old copy; the text is the fixed one.
  await context.setOffline(true);
  await page.reload();
  await page.getByTestId("device-copy").waitFor();
  assert.equal(await noteText(page), fixed);
  assert.equal(await page.getByTestId("save-state").textContent(), "", "no claim that changes are saved on the server");
  assert.ok(await page.getByRole("button", { name: /Make posts/ }).isDisabled(), "making posts needs the server");
  await screenshot(page, "note-offline-copy");
  await context.close();
});
