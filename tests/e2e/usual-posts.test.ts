import assert from "node:assert/strict";
import { test } from "@/tests/e2e/fixtures.ts";
import { assertAccessible, newPhone, screenshot, signUp, uploadNote } from "@/tests/e2e/support.ts";

// Issue 67 item 4: posts start at Stop. With a channel marked "write for every note", a new note's
// post is written before anyone asks: Make posts opens on it, already written (the offline writer
// here; a model writes it the same way, streaming into the same card), not on an empty page.

for (const scheme of ["light", "dark"] as const) {
  test(`${scheme}: a channel written for every note: Make posts opens on its post, already there`, async ({ app }) => {
    const { context, page } = await newPhone(app, { colorScheme: scheme });
    try {
      await signUp(page);
      // Settings → Channels: the switch, then the channel carries its badge.
      const made = await page.request.post("/api/v1/channels", { headers: { origin: app.url }, data: { platform: "linkedin", name: "My LinkedIn" } });
      assert.equal(made.status(), 201, await made.text());
      await page.goto("/channels");
      await page.getByRole("button", { name: "Edit My LinkedIn" }).click();
      const every = page.getByLabel(/Write a post for it from every note/);
      await every.check();
      await screenshot(page, `channel-every-note-${scheme}`, { fullPage: false });
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Every note").waitFor();

      const noteId = await uploadNote(page, app);
      await page.goto(`/transcripts/${noteId}`);
      await page.getByRole("button", { name: "Make posts from this note" }).click();
      await page.waitForURL(/\/content\/[0-9a-f-]{36}$/);
      const card = page.getByRole("article", { name: "Post for My LinkedIn" });
      await card.waitFor();
      // Written already (or being written): its text is on the card, no "Write posts" step first.
      await card.getByText(/country/i).first().waitFor({ timeout: 30_000 });
      await assertAccessible(page, `usual posts ${scheme}`);
      await screenshot(page, `posts-at-stop-${scheme}`, { fullPage: false });
    } finally {
      await context.close();
    }
  });
}
