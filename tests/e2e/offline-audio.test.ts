import assert from "node:assert/strict";
import { test } from "@/tests/e2e/fixtures.ts";
import type { Page } from "@playwright/test";
import { AUDIO_CACHE } from "@/app/_lib/cache-names.ts";
import { newPhone, screenshot, signUp, uploadNote, waitForOfflineReady } from "@/tests/e2e/support.ts";

// Issue 33 item 7: the newest notes' recordings are kept on the phone within the budget of
// Settings → This phone, so a note never played still plays offline; a smaller budget forgets them.

const keptUrls = (page: Page) => page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => r.url), AUDIO_CACHE);

test("the newest notes' recordings are kept within the budget, and a note never played plays offline", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  const older = await uploadNote(page, app);
  const newer = await uploadNote(page, app);
  const urls = [older, newer].map((id) => `${app.url}/api/v1/transcriptions/${id}/audio`);

  // Opened, not played: the page is kept for offline reading, and the recordings arrive by themselves.
  await page.goto(`/transcripts/${newer}`);
  await waitForOfflineReady(page);
  await page.goto("/transcripts");
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await page.waitForTimeout(500)) {
    const kept = await keptUrls(page);
    if (urls.every((url) => kept.includes(url))) break;
  }
  assert.deepEqual((await keptUrls(page)).sort(), [...urls].sort(), "both recordings kept without being played");

  await page.goto("/settings");
  await page.getByTestId("offline-audio").getByText(/Kept now: 2 recordings, [\d.]+ MB/).waitFor();
  // And the room the account's recordings take on the server (no quota set here: none is named).
  const serverAudio = (await page.getByTestId("server-audio").textContent()) ?? "";
  assert.match(serverAudio, /^On the server, your recordings take 0\.\d MB\.$/, serverAudio);
  assert.equal(await page.getByLabel("Listen offline").inputValue(), "100");
  await page.getByTestId("offline-audio").scrollIntoViewIfNeeded();
  await screenshot(page, "settings-phone-light", { fullPage: false });
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "settings-phone-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });

  // Offline, the note never played plays.
  await page.goto(`/transcripts/${newer}`);
  await context.setOffline(true);
  await page.reload();
  await page.getByTestId("play").click();
  await page.waitForFunction(() => /^0:0[1-9]/.test(document.querySelector('[data-testid="player-time"]')?.textContent ?? ""), undefined, { timeout: 15_000 });
  await page.getByRole("button", { name: "Pause" }).click();
  await context.setOffline(false);

  // "Only what I played": the recordings fetched for the budget are forgotten.
  await page.goto("/settings");
  await page.getByLabel("Listen offline").selectOption("0");
  await page.getByTestId("offline-audio").getByText("Kept now: 0 recordings, 0 MB.").waitFor();
  assert.deepEqual(await keptUrls(page), []);
});
