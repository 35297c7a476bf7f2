import assert from "node:assert/strict";
import { test } from "@/tests/e2e/fixtures.ts";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { assertAccessible, newPhone, noteEditor, screenshot, signUp } from "@/tests/e2e/support.ts";

// Issue 31 item 2 in the browser: a note opens with its summary, key points and to-dos; a to-do
// ticks (stored: it is still ticked after a reload); Notes names the note by its key phrase and
// shows its summary.

const PLAN =
  "Quick update on the quarterly budget review. The marketing budget is twenty percent over because of the conference booth. " +
  "I need to call Anna about the booth invoice before Friday. Don't forget to send the updated spreadsheet to Maria. " +
  "Overall the quarterly budget looks manageable if the booth invoice gets corrected.";

test("a note's insights: summary, key points, to-dos that tick and stay ticked; the list shows the key phrase", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await page.goto("/record");
  await page.getByLabel("Or choose an audio file").setInputFiles(JFK_WAV);
  await page.waitForURL(/\/transcripts\/(?!recordings)[^/]+$/, { timeout: 180_000 });
  await page.getByTestId("note-insights").waitFor();

  // The person's own words, with commitments: the insights are rewritten from the edit.
  const editor = await noteEditor(page);
  await editor.fill(PLAN);
  await page.getByRole("button", { name: "Done", exact: true }).click();
  await page.getByTestId("save-state").filter({ hasText: /saved/i }).waitFor({ timeout: 15_000 });
  await page.reload();
  const todos = page.getByTestId("action-items");
  await todos.getByText("Send the updated spreadsheet to Maria").waitFor();
  assert.match((await page.getByTestId("insights-summary").textContent()) ?? "", /quarterly budget/);

  const box = page.getByRole("checkbox", { name: "Send the updated spreadsheet to Maria" });
  const row = await box.locator("xpath=ancestor::label").boundingBox();
  assert.ok(row && row.height >= 44, `tap target ${row?.height}px`);
  await box.check();
  await page.getByText("1 left").waitFor();
  await page.getByText(/^Key points/).click();
  await assertAccessible(page, "note with insights");
  await screenshot(page, "note-insights-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "note-insights-dark");
  await page.emulateMedia({ colorScheme: "light" });

  await page.reload();
  assert.equal(await page.getByRole("checkbox", { name: "Send the updated spreadsheet to Maria" }).isChecked(), true, "the tick was stored");

  await page.goto("/transcripts");
  await page.getByRole("link", { name: /Quarterly budget/ }).waitFor();
  await page.getByText(/Overall the quarterly budget looks manageable/).first().waitFor();
  await screenshot(page, "notes-insights-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "notes-insights-dark", { fullPage: false });
  await context.close();
});
