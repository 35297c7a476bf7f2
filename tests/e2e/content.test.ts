import { test } from "@/tests/e2e/fixtures.ts";
import assert from "node:assert/strict";
import type { Page } from "@playwright/test";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { assertAccessible, newPhone, screenshot, signUp, type App } from "@/tests/e2e/support.ts";

type Family = {
  master: { id: string };
  variants: { id: string; content_hash: string }[];
  deliveries: { item_id: string; method: string; state: string }[];
};

async function family(page: Page, masterId: string): Promise<Family> {
  const res = await page.request.get(`/api/v1/content/items/${masterId}/family`);
  assert.equal(res.status(), 200);
  return (await res.json()) as Family;
}

/** The API's own answer to a manual confirmation, whatever the app offers. */
async function confirmStatus(page: Page, app: App, variant: { id: string; content_hash: string }): Promise<{ status: number; code?: string }> {
  const res = await page.request.post(`/api/v1/content/items/${variant.id}/deliveries/manual`, {
    headers: { origin: app.url },
    data: { client_event_id: crypto.randomUUID(), content_hash: variant.content_hash },
  });
  const body = (await res.json()) as { error?: { code: string } };
  return { status: res.status(), code: body.error?.code };
}

const post = (page: Page) => page.getByRole("article", { name: "Post for My LinkedIn" });
const variantState = (page: Page) => post(page).getByTestId("variant-state");

test("content: recording → note → Make posts → copy before approval, share (stubbed) after → manual confirmation only when approved and fresh", async ({ app }) => {
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
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signUp(page);

  await page.goto("/channels");
  await page.getByRole("button", { name: "Add channel" }).click();
  await page.getByLabel("Platform").selectOption("linkedin");
  await page.getByLabel("Name").fill("My LinkedIn");
  await page.getByRole("form", { name: "Add a channel" }).getByRole("button", { name: "Add channel" }).click();
  await page.getByRole("button", { name: "Edit My LinkedIn" }).waitFor();
  await assertAccessible(page, "channels");
  await screenshot(page, "channels");

  await page.goto("/record");
  await page.getByLabel("Or choose an audio file").setInputFiles(JFK_WAV);
  // The note opens by itself when its text is ready.
  await page.waitForURL(/\/transcripts\/[^/]+$/, { timeout: 120_000 });
  await page.getByRole("button", { name: "Make posts from this note" }).click();
  // Nothing is stored until posts are written: the page is the note's posts-to-be.
  await page.waitForURL(/\/content\/new\?note=/);
  await page.getByRole("heading", { name: "Where to post" }).waitFor();

  // The existing channel is preselected with its platform's style: one tap writes.
  await page.getByRole("button", { name: "Write the post" }).click();
  await page.waitForURL(/\/content\/(?!new)[^/?]+$/);
  const masterId = page.url().split("/").pop()!;
  await variantState(page).getByText("Ready to review").waitFor({ timeout: 60_000 });
  await assertAccessible(page, "content");
  await screenshot(page, "content-variant");

  // Before approval: no share and no manual confirmation offered, and the API refuses one.
  assert.equal(await post(page).getByRole("button", { name: "Share" }).count(), 0, "no share before approval");
  assert.equal(await post(page).getByRole("button", { name: "Did you post it?" }).count(), 0);
  let f = await family(page, masterId);
  assert.deepEqual(await confirmStatus(page, app, f.variants[0]), { status: 409, code: "not_approved" });

  // Copying stays possible before approval; it records a copy, never a publication.
  await post(page).getByRole("button", { name: "More for My LinkedIn" }).click();
  await page.getByRole("button", { name: "Copy text" }).click();
  await post(page).getByText("Copied. Paste it where you post.").waitFor();
  f = await family(page, masterId);
  const variantId = f.variants[0].id;
  assert.deepEqual(f.deliveries.filter((d) => d.item_id === variantId).map((d) => `${d.method}:${d.state}`), ["copy:presented"]);

  // Approve → Share: initiated before the sheet, presented when it resolves; never a confirmation.
  await post(page).getByRole("button", { name: "Approve" }).click();
  await variantState(page).getByText("Approved").waitFor();
  await post(page).getByRole("button", { name: "Share", exact: true }).click();
  await post(page).getByText(/^Shared\. Once it is live/).waitFor();
  const shared = await page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared);
  assert.equal(shared.length, 1);
  assert.ok(shared[0].text && shared[0].text.length > 0, "the variant's text went to the share sheet");
  assert.equal(shared[0].title, undefined, "the text alone: some share targets paste a title beside it (issue 69)");
  f = await family(page, masterId);
  assert.deepEqual(f.deliveries.filter((d) => d.method === "share").map((d) => d.state), ["presented"]);

  // A cancelled sheet is recorded as cancelled.
  await page.evaluate(() => ((window as unknown as { cancelNextShare: boolean }).cancelNextShare = true));
  await post(page).getByRole("button", { name: "More for My LinkedIn" }).click();
  await page.getByRole("button", { name: "Share again" }).click();
  await post(page).getByText("Sharing was cancelled. Nothing was sent.").waitFor();
  f = await family(page, masterId);
  assert.deepEqual(f.deliveries.filter((d) => d.method === "share").map((d) => d.state).sort(), ["cancelled", "presented"]);
  assert.ok(!f.deliveries.some((d) => d.state === "confirmed_manual"));
  await post(page).getByRole("button", { name: "Did you post it?" }).waitFor();

  // The master changes → the variant is stale → no manual confirmation until it is fresh again.
  await page.getByTestId("source").locator("summary").click();
  const masterBody = page.getByLabel("Text", { exact: true });
  await masterBody.fill(`${await masterBody.inputValue()} And one more sentence.`);
  await page.getByRole("button", { name: "Save text" }).click();
  await variantState(page).getByText("Shared an earlier text", { exact: true }).waitFor(); // it went out before the change
  assert.equal(await post(page).getByRole("button", { name: "Did you post it?" }).count(), 0, "no manual confirmation of a stale variant");
  f = await family(page, masterId);
  assert.deepEqual(await confirmStatus(page, app, f.variants[0]), { status: 409, code: "stale" });
  await screenshot(page, "content-stale");

  await post(page).getByRole("button", { name: "Rewrite from the note" }).click();
  await variantState(page).getByText("Ready to review").waitFor({ timeout: 60_000 });
  await post(page).getByRole("button", { name: "Approve" }).click();
  await variantState(page).getByText("Approved").waitFor();

  await post(page).getByRole("button", { name: "More for My LinkedIn" }).click();
  await page.getByRole("button", { name: "I posted it already" }).click();
  await page.getByLabel("Link to the post (optional)").fill("https://www.linkedin.com/feed/update/123");
  await page.getByRole("button", { name: "Yes, it is posted" }).click();
  await variantState(page).getByText("Posted").waitFor();
  await post(page).getByText("linkedin.com/feed/update/123").waitFor();
  f = await family(page, masterId);
  assert.equal(f.deliveries.filter((d) => d.state === "confirmed_manual").length, 1);
  assert.equal(f.deliveries.filter((d) => d.method === "share" && d.state === "confirmed_manual").length, 0);
  await screenshot(page, "content-confirmed");

  await page.goto("/content");
  await page.getByRole("list", { name: "Posts" }).waitFor();
  await assertAccessible(page, "content list");
  await context.close();
});
