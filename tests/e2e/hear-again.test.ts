import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "@/tests/e2e/fixtures.ts";
import { assertTappable, assertToastClear, newPhone, noteEditor, noteText, screenshot, signUp, uploadNote } from "@/tests/e2e/support.ts";

// Issue 57 item 2 on a phone at 360×740, light and dark: a note the basic recognizer heard says so;
// once the accurate recognizer has arrived, it offers to hear the recording again, and says when
// that is done. The app runs with TRANSCRIBE_ENGINE=auto and no whisper model, so PocketSphinx
// hears the note; "the accurate recognizer arrives" as the launcher's download would leave it: a
// ggml model appearing in MODELS_DIR (whisper.cpp's test model, which loads and runs and hears no
// words, so the note keeps its text: what the API tests show with one that hears words).

const models = mkdtempSync(path.join(tmpdir(), "vd-e2e-models-"));
test.use({ appEnv: { TRANSCRIBE_ENGINE: "auto", MODELS_DIR: models, WHISPER_AUTO_DOWNLOAD: "false" } });

test("a basic recognizer's note is heard again once the accurate recognizer has arrived (light and dark)", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  const id = await uploadNote(page, app);
  await page.goto(`/transcripts/${id}`);
  const line = page.getByTestId("basic-recognizer");
  await line.waitFor();
  assert.match((await line.textContent()) ?? "", /Heard by the basic recognizer/);
  assert.equal(await line.getByRole("button", { name: "Hear it again" }).count(), 0, "nothing better to hear it with yet");

  // The accurate recognizer arrives.
  copyFileSync(new URL("../fixtures/for-tests-ggml-tiny.en.bin", import.meta.url).pathname, path.join(models, "ggml-base.en.bin"));
  await page.reload();
  const hear = line.getByRole("button", { name: "Hear it again" });
  await hear.waitFor();
  assert.match((await line.textContent()) ?? "", /accurate recognizer has arrived since: it can hear this recording again/);
  await assertTappable(hear, "Hear it again");
  const box = await hear.boundingBox();
  assert.ok(box && box.height >= 44, `a thumb high: ${box?.height}`);
  await line.scrollIntoViewIfNeeded();
  await screenshot(page, "hear-again-offer-light", { fullPage: false });
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "hear-again-offer-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });

  const before = await noteText(page);
  await hear.click();
  // The line gives way to "Improving the text", then the pass says how it went.
  const toast = page.getByTestId("toast").filter({ hasText: "Heard again" });
  await toast.waitFor({ timeout: 120_000 });
  assert.match((await toast.textContent()) ?? "", /nothing to change, so the text stays/);
  await assertToastClear(toast, page.locator("#transcript-text"), "the text");
  await screenshot(page, "hear-again-same-light", { fullPage: false });
  assert.equal(await noteText(page), before, "the text stays");
  const note = (await (await page.request.get(`/api/v1/transcriptions/${id}`)).json()) as { text_improving: boolean; text_improved_at: string | null };
  assert.equal(note.text_improving, false);
  assert.equal(note.text_improved_at, null);

  // Edited, the note is the person's: it is not heard again, and the line says why in one sentence
  // (issue 69 item 10: it went on offering nothing, without a word).
  const editor = await noteEditor(page);
  await editor.fill(`${before} And one more line of my own.`);
  await page.getByRole("button", { name: "Done", exact: true }).click();
  await page.getByTestId("save-state").filter({ hasText: /saved/i }).waitFor({ timeout: 15_000 });
  await line.getByText("You edited this note, so it is not heard again: your words stay.", { exact: true }).waitFor();
  assert.equal(await line.getByRole("button", { name: "Hear it again" }).count(), 0);
  await line.scrollIntoViewIfNeeded();
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "hear-again-edited-dark", { fullPage: false });
  await context.close();
});
