import assert from "node:assert/strict";
import { test } from "@/tests/e2e/fixtures.ts";
import type { Page } from "@playwright/test";
import { assertAccessible, newPhone, screenshot, signIn, signUp, uploadNote, waitForOfflineReady, type App } from "@/tests/e2e/support.ts";

// Issue 33 item 5 in the browser, at 360×740 in light and dark: tag a note with chips (a tag you
// have is one tap), pin it, see the tags and the pin in Notes, filter Notes by a tag, search with
// tag: and with a prefix (its snippet), rename and delete a tag in Settings → Tags (with Undo), and
// Notes with tags while a recording waits on the phone.

/** The note made from the JFK recording, retold as another note (its text and title), with tags. */
async function retell(page: Page, app: App, text: string, body: Record<string, unknown>): Promise<string> {
  const id = await uploadNote(page, app);
  const res = await page.request.patch(`/api/v1/transcriptions/${id}`, { headers: { origin: app.url }, data: { text, ...body } });
  assert.equal(res.status(), 200, await res.text());
  return id;
}

/** Nothing wider than the phone, and every chip a full 44 px target. */
async function checkLayout(page: Page, label: string): Promise<void> {
  const { scrollWidth, smallChips } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    smallChips: [...document.querySelectorAll("button, a")]
      .filter((el) => el.getClientRects().length && (el.getAttribute("class") ?? "").includes("chip"))
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.height < 44 || r.width < 44)
      .map((r) => `${r.width}×${r.height}`),
  }));
  assert.ok(scrollWidth <= 360, `${label}: the page scrolls sideways (${scrollWidth} px)`);
  assert.deepEqual(smallChips, [], `${label}: chips smaller than 44×44`);
  await assertAccessible(page, label);
}

const rows = (page: Page) => page.getByRole("list", { name: "Notes" }).getByRole("listitem");

test("tags and pins: chips on the note, one tap for a tag you have, Notes filtered and searched by tag, Settings → Tags", async ({ app }) => {
  const { context, page } = await newPhone(app);
  const email = await signUp(page);
  const speech = await uploadNote(page, app);
  await retell(page, app, "Call Anna about the launch plan. The landing page needs new copy and the pricing table a second look before Friday.", {
    title: "Launch plan with Anna",
    tags: ["work", "launch"],
  });
  await retell(page, app, "An idea for the garden: plant lavender along the path, and move the roses to the sunny corner by the shed.", {
    tags: ["ideas"],
  });

  // The speech: tag it with one of your tags (one tap) and a new one, then pin it.
  await page.goto(`/transcripts/${speech}`);
  await page.getByTestId("add-tag").click();
  const sheet = page.getByRole("dialog", { name: "Add a tag" });
  await sheet.getByTestId("suggested-tag").first().waitFor();
  // The sheet is for typing: the field has the focus, not ✕ (issue 57).
  assert.equal(await page.evaluate(() => document.activeElement?.id), "new-tag");
  // Each on one note: by name.
  assert.deepEqual(await sheet.getByTestId("suggested-tag").allTextContents(), ["#ideas", "#launch", "#work"]);
  await screenshot(page, "note-add-tag-light");
  await sheet.getByRole("button", { name: "#ideas" }).click();
  await page.getByRole("button", { name: "Remove tag ideas" }).waitFor();
  await page.getByTestId("add-tag").click();
  await sheet.getByTestId("tag-input").fill("#History ");
  await sheet.getByRole("button", { name: "Add “History”" }).click();
  await page.getByRole("button", { name: "Remove tag History" }).waitFor();
  assert.deepEqual(await page.getByTestId("note-tag").allTextContents(), ["#ideas", "#History"]);

  await page.getByTestId("note-more").click();
  await page.getByTestId("pin-note").click();
  await page.getByTestId("pinned").waitFor();
  // Kept on the server: a reload shows them (and the page without the toast, for its picture).
  await page.reload();
  assert.deepEqual(await page.getByTestId("note-tag").allTextContents(), ["#ideas", "#History"]);
  await page.getByTestId("pinned").waitFor();
  await checkLayout(page, "a note with tags");
  await screenshot(page, "note-tags-light");

  // Removing a chip, with Undo.
  await page.getByRole("button", { name: "Remove tag ideas" }).click();
  await page.getByTestId("toast").getByText("Removed the tag “ideas”.").waitFor();
  assert.deepEqual(await page.getByTestId("note-tag").allTextContents(), ["#History"]);
  await page.getByTestId("toast").getByRole("button", { name: "Undo" }).click();
  await page.getByRole("button", { name: "Remove tag ideas" }).waitFor();
  // Saved on the server (the toast says so) before the page is left: leaving sooner left it unsaved.
  await page.getByTestId("toast").getByText("Undone: the tags are as they were.").waitFor();

  // Notes: the pinned speech first, every row with its tags; the tag row filters.
  await page.goto("/transcripts");
  await rows(page).first().waitFor();
  assert.equal(await rows(page).count(), 3);
  await rows(page).first().getByTestId("row-pinned").waitFor();
  assert.match((await rows(page).first().textContent()) ?? "", /#ideas.*#History/);
  await checkLayout(page, "Notes with tags");
  await screenshot(page, "notes-tags-light", { fullPage: false });
  await page.getByRole("group", { name: "Show notes tagged" }).getByRole("link", { name: "#ideas" }).click();
  await page.waitForURL("**/transcripts?tag=ideas");
  await page.getByRole("list", { name: "Notes" }).getByRole("listitem").nth(1).waitFor();
  assert.equal(await rows(page).count(), 2, "the speech and the garden idea");
  assert.equal(await page.getByRole("group", { name: "Show notes tagged" }).getByRole("link", { name: "#ideas" }).getAttribute("aria-current"), "true");
  await screenshot(page, "notes-tag-filter-light", { fullPage: false });

  // Search: a prefix as you type, its snippet; and tag: narrowing it.
  await page.goto("/transcripts");
  await page.getByTestId("note-search").fill("countr");
  await page.getByTestId("search-count").getByText("1 note matches “countr”").waitFor();
  const marked = await page.getByTestId("search-snippet").locator("mark").allTextContents();
  assert.deepEqual([...new Set(marked.map((m) => m.toLowerCase()))], ["country"]);
  // The word found is in the two lines the row shows, not cut off after them.
  const shown = await page.getByTestId("search-snippet").evaluate((el) => {
    const box = (el.parentElement ?? el).getBoundingClientRect();
    const mark = el.querySelector("mark")!.getBoundingClientRect();
    return mark.bottom <= box.bottom + 1 && mark.top >= box.top - 1;
  });
  assert.ok(shown, "the first match is visible in the snippet");
  await screenshot(page, "notes-search-countr-light", { fullPage: false });
  await page.getByTestId("note-search").fill("tag:work countr");
  await page.getByText("No notes match “tag:work countr”").waitFor();
  await page.getByTestId("note-search").fill("tag:history countr");
  await page.getByTestId("search-count").getByText("1 note matches “tag:history countr”").waitFor();

  // Settings → Tags: rename (merging says so before it saves), delete with Undo.
  await page.goto("/settings");
  await page.getByRole("link", { name: /Tags/ }).click();
  await page.waitForURL("**/tags");
  await page.getByTestId("tag-entry").first().waitFor();
  assert.deepEqual(await page.getByTestId("tag-name").allTextContents(), ["#ideas", "#History", "#launch", "#work"]);
  await page.getByRole("button", { name: "Rename launch" }).click();
  const rename = page.getByRole("dialog", { name: "Rename “launch”" });
  await rename.getByLabel("New name").fill("Work");
  await rename.getByRole("button", { name: "Merge into “work”" }).waitFor();
  await screenshot(page, "settings-tags-merge-light");
  await rename.getByRole("button", { name: "Merge into “work”" }).click();
  await page.getByTestId("toast").getByText("Merged “launch” into “work”: 1 note.").waitFor();
  await page.getByRole("button", { name: "Delete History" }).click();
  await page.getByTestId("toast").getByText("Deleted the tag “History” from 1 note.").waitFor();
  assert.equal(await page.getByRole("button", { name: "Delete History" }).count(), 0);
  await page.getByTestId("toast").filter({ hasText: "History" }).getByRole("button", { name: "Undo" }).click();
  await page.getByRole("button", { name: "Delete History" }).waitFor();
  await checkLayout(page, "Settings → Tags");
  await screenshot(page, "settings-tags-light");
  const tags = (await (await page.request.get("/api/v1/tags")).json()) as { tags: { name: string; notes: number }[] };
  assert.deepEqual(tags.tags.map((t) => t.name).sort(), ["History", "ideas", "work"], "the undone delete was never sent");

  // Dark: the same screens.
  const dark = await newPhone(app, { colorScheme: "dark" });
  await signIn(dark.page, email);
  await dark.page.waitForURL("**/record");
  await dark.page.goto(`/transcripts/${speech}`);
  await dark.page.getByTestId("note-tag").first().waitFor();
  await checkLayout(dark.page, "a note with tags (dark)");
  await screenshot(dark.page, "note-tags-dark");
  await dark.page.getByTestId("add-tag").click();
  await dark.page.getByRole("dialog", { name: "Add a tag" }).getByTestId("suggested-tag").first().waitFor();
  await assertAccessible(dark.page, "add a tag (dark)");
  await screenshot(dark.page, "note-add-tag-dark");
  await dark.page.goto("/transcripts");
  await rows(dark.page).first().waitFor();
  await checkLayout(dark.page, "Notes with tags (dark)");
  await screenshot(dark.page, "notes-tags-dark", { fullPage: false });
  await dark.page.getByTestId("note-search").fill("countr");
  await dark.page.getByTestId("search-snippet").first().waitFor();
  await screenshot(dark.page, "notes-search-countr-dark", { fullPage: false });
  await dark.page.goto("/tags");
  await dark.page.getByTestId("tag-entry").first().waitFor();
  await checkLayout(dark.page, "Settings → Tags (dark)");
  await screenshot(dark.page, "settings-tags-dark");
  await dark.context.close();

  // A recording made offline waits on the phone, at the top of Notes, above the tagged notes.
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Notes" }).click();
  await page.waitForURL("**/transcripts");
  await waitForOfflineReady(page);
  await nav.getByRole("link", { name: "Record" }).click();
  await page.waitForURL("**/record");
  await waitForOfflineReady(page);
  await context.setOffline(true);
  await page.getByRole("button", { name: "Start recording" }).click();
  await page.getByTestId("recorder-state").getByText("Recording").waitFor();
  await page.waitForTimeout(3000);
  await page.getByRole("button", { name: "Stop and save" }).click();
  await page.getByTestId("progress-card").getByText(/offline|waiting/i).waitFor({ timeout: 15_000 });
  await nav.getByRole("link", { name: "Notes" }).click();
  await page.waitForURL("**/transcripts");
  await page.getByText("Waiting on this phone").waitFor({ timeout: 15_000 });
  await rows(page).first().getByTestId("row-pinned").waitFor();
  await screenshot(page, "notes-tags-waiting-light", { fullPage: false });
  await context.setOffline(false);
  await context.close();
});

test("offline, a tag and a pin are kept on the phone, shown as set, and sent once it is back online", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  const id = await uploadNote(page, app);
  const server = async () => (await (await page.request.get(`/api/v1/transcriptions/${id}`)).json()) as { tags: string[]; pinned: boolean };
  await page.goto(`/transcripts/${id}`);
  await page.getByTestId("add-tag").waitFor();
  // The note's saved copy, opened with no connection (a page open when the connection drops
  // turns into it at its next read, e.g. while it follows the clean-up).
  await waitForOfflineReady(page);
  await context.setOffline(true);
  await page.reload();
  await page.getByTestId("offline-banner").waitFor();
  await page.getByTestId("add-tag").click();
  const sheet = page.getByRole("dialog", { name: "Add a tag" });
  await sheet.getByTestId("tag-input").fill("train");
  await sheet.getByRole("button", { name: "Add “train”" }).click();
  await page.getByRole("button", { name: "Remove tag train" }).waitFor();
  await page.getByTestId("toast").getByText("Tags saved on this phone; sent when you are back online.").waitFor();
  await page.getByTestId("note-more").click();
  await page.getByTestId("pin-note").click();
  await page.getByTestId("pinned").waitFor();
  await page.getByTestId("toast").getByText("Pinned to the top of Notes. Saved on this phone; sent when you are back online.").waitFor();
  await screenshot(page, "note-tags-offline-light", { fullPage: false });
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "note-tags-offline-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });

  // Back online: the app sends them by itself (nothing to tap), and a reload shows them from the server.
  await context.setOffline(false);
  let now = await server();
  for (let tries = 0; tries < 120 && !(now.pinned && now.tags.includes("train")); tries++) {
    await page.waitForTimeout(250);
    now = await server();
  }
  assert.deepEqual([now.tags, now.pinned], [["train"], true]);
  await page.reload();
  await page.getByRole("button", { name: "Remove tag train" }).waitFor();
  await page.getByTestId("pinned").waitFor();
  await context.close();
});
