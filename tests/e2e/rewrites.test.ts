import assert from "node:assert/strict";
import { test } from "@/tests/e2e/fixtures.ts";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { assertAccessible, newPhone, noteEditor, screenshot, signUp } from "@/tests/e2e/support.ts";

// Issue 31 item 3 in the browser, without a writer: "Rewrite as…" lists the styles (those that
// need a writer, or that this note has nothing for, say so and cannot be picked), a to-do list is written and opens on its own page,
// is edited, and is listed under the note; Settings → Rewrite styles adds a style of your own.

const PLAN =
  "Quick update on the quarterly budget review. I need to call Anna about the booth invoice before Friday. " +
  "Don't forget to send the updated spreadsheet to Maria.";

test("rewrite a note as a to-do list, edit it, find it under the note; styles of your own in Settings", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await page.goto("/record");
  await page.getByLabel("Or choose an audio file").setInputFiles(JFK_WAV);
  await page.waitForURL(/\/transcripts\/(?!recordings)[^/]+$/, { timeout: 180_000 });
  const noteUrl = page.url();
  // JFK's sentence commits to nothing: without a writer, its to-do list is greyed out and says
  // why, instead of looking pickable and then refusing (issue 44).
  await page.getByTestId("rewrite-as").click();
  await page.getByTestId("rewrite-styles").waitFor();
  assert.equal(await page.getByTestId("style-todo_list").isDisabled(), true, "no to-do list of a note that commits to nothing");
  await page.getByTestId("style-todo_list").getByText("Nothing to do in this note").waitFor();
  assert.equal(await page.getByTestId("style-blog_outline").isDisabled(), false, "its outline can be made");
  await page.getByRole("button", { name: "Close" }).click();
  const editor = await noteEditor(page);
  await editor.fill(PLAN);
  await page.getByRole("button", { name: "Done", exact: true }).click();
  await page.getByTestId("save-state").filter({ hasText: /saved/i }).waitFor({ timeout: 15_000 });

  const action = page.getByTestId("rewrite-as");
  const box = await action.boundingBox();
  assert.ok(box && box.height >= 44, `tap target ${box?.height}px`);
  await action.click();
  await page.getByTestId("rewrite-styles").waitFor();
  assert.equal(await page.getByTestId("style-email").isDisabled(), true, "email needs a writer");
  await page.getByTestId("style-email").getByText("Needs a writer — Settings → Writing").waitFor();
  await assertAccessible(page, "rewrite sheet");
  await screenshot(page, "rewrite-sheet-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "rewrite-sheet-dark");
  await page.emulateMedia({ colorScheme: "light" });

  await page.getByTestId("style-todo_list").click();
  await page.waitForURL(/\/rewrites\/[^/]+$/);
  const text = page.getByTestId("rewrite-text");
  assert.match((await text.textContent()) ?? "", /To do: Call Anna about the booth invoice/i);
  await assertAccessible(page, "rewrite");
  await screenshot(page, "rewrite-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "rewrite-dark");
  await page.emulateMedia({ colorScheme: "light" });

  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByTestId("rewrite-editor").fill("- [x] Call Anna\n- [ ] Send the spreadsheet");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByTestId("rewrite-text").filter({ hasText: "Done: Call Anna" }).waitFor();
  await page.reload();
  await page.getByTestId("rewrite-text").filter({ hasText: "Done: Call Anna" }).waitFor();

  await page.goto(noteUrl);
  await page.getByTestId("rewrite-row").first().waitFor();

  await page.goto("/settings");
  await page.getByRole("link", { name: /Rewrite styles/ }).click();
  await page.getByRole("button", { name: "Add a style" }).click();
  await page.getByLabel("Name").fill("Standup");
  await page.getByLabel("What should the writer do?").fill("Three bullets: done, next, blocked.");
  await page.getByRole("button", { name: "Add style" }).click();
  await page.getByTestId("rewrite-style-row").filter({ hasText: "Standup" }).waitFor();
  await screenshot(page, "rewrite-styles-light");
  await context.close();
});
