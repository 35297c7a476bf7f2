import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { assertAccessible, newPhone, screenshot, signUp, startApp, type App } from "@/tests/e2e/support.ts";

let app: App;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.stop();
});

type Family = { master: { id: string }; variants: { id: string; content_hash: string }[]; deliveries: { item_id: string; method: string; state: string }[] };

async function family(page: Page, masterId: string): Promise<Family> {
  const res = await page.request.get(`/api/v1/content/items/${masterId}/family`);
  assert.equal(res.status(), 200);
  return (await res.json()) as Family;
}

const variantState = (page: Page) => page.getByTestId("variant").getByTestId("variant-state");

test("content: transcript → master → variant → share (stubbed) → approve → manual confirmation only when approved and fresh", async () => {
  const { context, page } = await newPhone(app);
  // Headless Chromium has no share sheet: a stub that records what it was given and resolves
  // (or, when told to, is cancelled like a user closing the sheet).
  // (A string, not a function: tsx would wrap the function's inner closures in helpers the page lacks.)
  await context.addInitScript(`
    window.shared = [];
    window.cancelNextShare = false;
    Object.defineProperty(navigator, "share", {
      configurable: true,
      value: async (data) => {
        window.shared.push({ title: data.title, text: data.text, files: (data.files || []).length });
        if (window.cancelNextShare) {
          window.cancelNextShare = false;
          throw new DOMException("Share canceled", "AbortError");
        }
      },
    });
  `);
  await signUp(page);

  await page.goto("/channels");
  await page.getByLabel("Channel name").fill("My LinkedIn");
  await page.getByLabel("Platform").selectOption("linkedin");
  await page.getByRole("button", { name: "Add channel" }).click();
  await page.getByRole("button", { name: "Deactivate My LinkedIn" }).waitFor();
  await assertAccessible(page, "channels");
  await screenshot(page, "channels");

  await page.goto("/record");
  await page.getByLabel("Or choose an audio file").setInputFiles(JFK_WAV);
  // The note opens by itself when its text is ready.
  await page.waitForURL(/\/transcripts\/[^/]+$/, { timeout: 120_000 });
  await page.getByRole("button", { name: "Make posts from this note" }).click();
  await page.waitForURL("**/content/*");
  const masterId = page.url().split("/").pop()!;
  await page.getByRole("heading", { name: "Source text" }).waitFor();

  await page.getByRole("button", { name: "Write posts" }).click();
  await variantState(page).getByText("Ready to review").waitFor({ timeout: 60_000 });
  await assertAccessible(page, "content");
  await screenshot(page, "content-variant");

  const confirmButton = page.getByRole("button", { name: "I published this manually" });
  assert.equal(await confirmButton.isDisabled(), true, "no manual confirmation before approval");

  // Share: initiated before the sheet, presented when it resolves; never a confirmation.
  await page.getByRole("button", { name: "Share", exact: true }).click();
  await page.getByText(/The share sheet was shown/).waitFor();
  const shared = await page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared);
  assert.equal(shared.length, 1);
  assert.ok(shared[0].text && shared[0].text.length > 0, "the variant's text went to the share sheet");
  let f = await family(page, masterId);
  const variantId = f.variants[0].id;
  assert.deepEqual(f.deliveries.filter((d) => d.item_id === variantId).map((d) => d.state), ["presented"]);

  // A cancelled sheet is recorded as cancelled.
  await page.evaluate(() => ((window as unknown as { cancelNextShare: boolean }).cancelNextShare = true));
  await page.getByRole("button", { name: "Share", exact: true }).click();
  await page.getByText("Sharing was cancelled.").waitFor();
  f = await family(page, masterId);
  assert.deepEqual(f.deliveries.map((d) => d.state).sort(), ["cancelled", "presented"]);
  assert.ok(!f.deliveries.some((d) => d.state === "confirmed_manual"));

  // Approve → the manual confirmation becomes possible.
  await page.getByRole("button", { name: "Approve" }).click();
  await variantState(page).getByText("Approved").waitFor();
  assert.equal(await confirmButton.isEnabled(), true);

  // The master changes → the variant is stale → no manual confirmation until it is fresh again.
  const masterBody = page.getByLabel("Text").first();
  await masterBody.fill(`${await masterBody.inputValue()} And one more sentence.`);
  await page.getByRole("button", { name: "Save" }).first().click();
  await variantState(page).getByText(/Out of date/).waitFor();
  assert.equal(await confirmButton.isDisabled(), true, "no manual confirmation of a stale variant");
  await screenshot(page, "content-stale");

  await page.getByRole("button", { name: "Rewrite from the source text" }).click();
  await variantState(page).getByText("Up to date").waitFor({ timeout: 60_000 });
  await variantState(page).getByText("Ready to review").waitFor({ timeout: 60_000 });
  await page.getByRole("button", { name: "Approve" }).click();
  await variantState(page).getByText("Approved").waitFor();

  await confirmButton.click();
  await page.getByLabel("Where (link, optional)").fill("https://www.linkedin.com/feed/update/123");
  await page.getByRole("button", { name: "Confirm: I published it" }).click();
  await variantState(page).getByText("Published (confirmed by you)").waitFor();
  f = await family(page, masterId);
  assert.equal(f.deliveries.filter((d) => d.state === "confirmed_manual").length, 1);
  assert.equal(f.deliveries.filter((d) => d.method === "share" && d.state === "confirmed_manual").length, 0);
  await screenshot(page, "content-confirmed");

  await page.goto("/content");
  await page.getByRole("list", { name: "Posts" }).waitFor();
  await assertAccessible(page, "content list");
  await context.close();
});
