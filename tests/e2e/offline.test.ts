import { test } from "@/tests/e2e/fixtures.ts";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { assertAccessible, newPhone, noteEditor, noteText, screenshot, signUp, waitForOfflineReady } from "@/tests/e2e/support.ts";

// Offline reading: what the user has opened stays readable without a network (pages from the
// service worker's cache, their data from IndexedDB), and an edit made offline is sent once the
// phone is back online; a conflicting change made elsewhere meanwhile is shown, not overwritten.

test("notes read online stay readable offline; an offline edit is saved once back online, a conflict is shown", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  const sameSite = { origin: app.url };
  const audio = await readFile(JFK_WAV);
  const uploaded = await page.request.post("/transcribe", {
    headers: sameSite,
    multipart: { audio: { name: "jfk.wav", mimeType: "audio/wav", buffer: audio } },
    timeout: 180_000, // a busy machine
  });
  const note = (await uploaded.json()) as { id: string };
  assert.ok(note.id, "a note was transcribed");
  await waitForOfflineReady(page);

  // Online: the list, then the note by its in-app link (not a document load).
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Notes" }).click();
  const list = page.getByRole("list", { name: "Notes" });
  await list.getByRole("listitem").first().waitFor();
  await list.getByRole("link").first().click();
  await page.waitForURL(`**/transcripts/${note.id}`);
  const online = await noteText(page);
  assert.match(online, /country/i);
  // The page reached by a link is kept for offline use in the background. (Polled with evaluate:
  // waitForFunction takes the promise an async predicate returns as truthy and does not wait.)
  await waitForOfflineReady(page);

  await context.setOffline(true);
  await page.reload();
  assert.equal(await noteText(page), online, "the note reads the same offline");
  await page.getByTestId("offline-banner").waitFor();
  await screenshot(page, "note-offline");

  // The tab bar still works: the list (seen before) opens with its notes.
  await nav.getByRole("link", { name: "Notes" }).click();
  await page.waitForURL("**/transcripts");
  await list.getByRole("listitem").first().waitFor();
  await page.getByTestId("offline-banner").waitFor();
  await assertAccessible(page, "notes offline");
  await screenshot(page, "notes-offline");

  // A page never opened: the app's frame with its tab bar and a plain message, not a bare page.
  await nav.getByRole("link", { name: "Posts" }).click();
  await page.getByRole("heading", { name: "You are offline" }).waitFor();
  assert.equal(await nav.getByRole("link").count(), 4, "the tab bar is there");
  await screenshot(page, "offline-unseen-page");

  // Edit offline: kept on the phone, sent when the network is back.
  await nav.getByRole("link", { name: "Notes" }).click();
  await list.getByRole("link").first().click();
  await page.waitForURL(`**/transcripts/${note.id}`);
  await (await noteEditor(page)).fill(`${online} Written on the train.`);
  await page.getByText("Saved on this phone").waitFor();
  await screenshot(page, "note-edited-offline");
  await context.setOffline(false);
  await page.getByTestId("save-state").getByText("All changes saved").waitFor();
  const saved = (await (await page.request.get(`/api/v1/transcriptions/${note.id}`)).json()) as { text: string; updated_at: string };
  assert.equal(saved.text, `${online} Written on the train.`);

  // Offline again; meanwhile the note changes on another device: back online, the conflict is shown.
  await context.setOffline(true);
  await (await noteEditor(page)).fill(`${online} Edited on the phone.`);
  await page.getByText("Saved on this phone").waitFor();
  const elsewhere = await page.request.patch(`/api/v1/transcriptions/${note.id}`, { headers: sameSite, data: { text: "Edited on the laptop." } });
  assert.equal(elsewhere.status(), 200);
  await context.setOffline(false);
  const conflict = page.getByRole("alert").filter({ hasText: "changed on another device" });
  await conflict.waitFor();
  await screenshot(page, "note-conflict");
  await conflict.getByRole("button", { name: "Keep my version" }).click();
  await page.getByTestId("save-state").getByText("All changes saved").waitFor();
  const kept = (await (await page.request.get(`/api/v1/transcriptions/${note.id}`)).json()) as { text: string };
  assert.equal(kept.text, `${online} Edited on the phone.`);
  await context.close();
});
