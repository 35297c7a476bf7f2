import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "@/tests/e2e/fixtures.ts";
import type { Page } from "@playwright/test";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { assertAccessible, newPhone, noteEditor, noteText, screenshot, signIn, signUp } from "@/tests/e2e/support.ts";

// Issue 33 items 2 and 3 in the browser, at 360×740 in light and dark: while a long note plays its
// text has most of the screen, the hint says what a tap does and no bar covers it, the last line
// scrolls clear of the actions, and the spoken word stands out (≥ 3:1, underlined).

const MORE =
  "Then we talked about the launch plan for the spring and who owns which part of it. " +
  "The landing page needs new copy, the pricing table needs a second look, and the onboarding emails are still the old ones. " +
  "Anna will draft the announcement and Maria will check the numbers before anything goes out. ";

/** WCAG contrast of two computed colours ("rgb(r, g, b)"). */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = color.match(/[\d.]+/g)!.slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// A string, not a function: tsx would wrap the function's inner closures in helpers the page lacks.
// How many pixel rows of the note's text are seen, not under a bar (what elementFromPoint finds).
const VISIBLE_TEXT_ROWS = `(() => {
  const text = document.querySelector('[data-testid="note-text"]');
  const r = text.getBoundingClientRect();
  const x = r.left + r.width / 2;
  let rows = 0;
  for (let y = Math.max(0, Math.ceil(r.top)); y < Math.min(innerHeight, r.bottom); y++) if (text.contains(document.elementFromPoint(x, y))) rows++;
  return rows;
})()`;

/** What covers the middle of an element's box (null: nothing, it is itself on top), and whether it is on screen. */
const covered = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + Math.min(r.width / 2, 20), r.top + r.height / 2);
    return { onScreen: r.top >= 0 && r.bottom <= innerHeight && r.height > 0, by: el.contains(top) ? null : (top?.outerHTML.slice(0, 80) ?? "nothing") };
  });

async function checkWhilePlaying(page: Page, scheme: "light" | "dark", noteId: string): Promise<void> {
  await page.goto(`/transcripts/${noteId}`);
  await page.getByTestId("note-insights").waitFor();
  await page.getByTestId("play").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="note-text"] [aria-current="true"]'), undefined, { timeout: 15_000 });
  // The page's smooth scroll to the text, settled.
  for (let last = -1, now = 0; last !== now; ) {
    last = now;
    await page.waitForTimeout(400);
    now = await page.evaluate(() => scrollY);
  }
  assert.equal(await page.getByRole("button", { name: "Pause" }).count(), 1, "it plays");

  await screenshot(page, `note-screen-playing-${scheme}`, { fullPage: false });

  // The text's share of the screen, while it plays.
  const rows = (await page.evaluate(VISIBLE_TEXT_ROWS)) as number;
  const share = rows / page.viewportSize()!.height;
  console.log(`# ${scheme}: the note's text is ${rows} of ${page.viewportSize()!.height} px (${Math.round(share * 100)} %) while it plays`);
  assert.ok(share >= 0.5, `the text has ${rows} px, ${Math.round(share * 100)} % of the screen`);

  // The player is one row.
  const player = (await page.getByTestId("player").boundingBox())!;
  assert.ok(player.height <= 57, `the player is ${player.height} px high`);

  // The hint says what a tap does now, on screen and under no bar.
  assert.equal(await page.getByTestId("note-hint").textContent(), "Tap a word to play from there.");
  assert.deepEqual(await covered(page, "note-hint"), { onScreen: true, by: null });

  // The spoken word: ≥ 3:1 against the text's background and the page's, its text ≥ 4.5:1 on it, and underlined.
  const look = await page.evaluate(() => {
    const word = document.querySelector('[data-testid="note-text"] [aria-current="true"]')!;
    const style = getComputedStyle(word);
    return {
      mark: style.backgroundColor,
      color: style.color,
      decoration: style.textDecorationLine,
      weight: Number(style.fontWeight),
      around: getComputedStyle(document.querySelector('[data-testid="note-text"]')!).backgroundColor,
      // The page around the text: the first background drawn behind it.
      page: (() => {
        for (let at = document.querySelector('[data-testid="note-text"]')!.parentElement; at; at = at.parentElement) {
          const bg = getComputedStyle(at).backgroundColor;
          if (bg !== "transparent" && !/rgba\(.*, 0\)$/.test(bg)) return bg;
        }
        return "rgb(255, 255, 255)";
      })(),
    };
  });
  const ratios = { markOnText: contrast(look.mark, look.around), markOnPage: contrast(look.mark, look.page), wordOnMark: contrast(look.color, look.mark) };
  console.log(`# ${scheme}: spoken word ${look.mark} on ${look.around}: ${ratios.markOnText.toFixed(2)}:1 (page ${ratios.markOnPage.toFixed(2)}:1), its text ${ratios.wordOnMark.toFixed(2)}:1`);
  assert.ok(ratios.markOnText >= 3 && ratios.markOnPage >= 3, JSON.stringify({ look, ratios }));
  assert.ok(ratios.wordOnMark >= 4.5, JSON.stringify({ look, ratios }));
  assert.ok(look.decoration.includes("underline") || look.weight >= 600, `told apart by more than colour: ${look.decoration}, ${look.weight}`);

  // Scrolled to the end while it plays (it does not pull the reader back): the last line is above the bar.
  for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 800);
  await page.waitForTimeout(300);
  const last = await page.getByTestId("note-text").evaluate((el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node: Node | null = null;
    for (let next = walker.nextNode(); next; next = walker.nextNode()) if (next.textContent?.trim()) node = next;
    const range = new Range();
    const end = node!.textContent!.trimEnd().length;
    range.setStart(node!, end - 1);
    range.setEnd(node!, end);
    const line = range.getBoundingClientRect();
    const bar = document.querySelector('[data-testid="note-actions"]')!.getBoundingClientRect();
    const at = document.elementFromPoint(line.left + line.width / 2, line.top + line.height / 2);
    return { lineBottom: line.bottom, barTop: bar.top, seen: el.contains(at) };
  });
  assert.ok(last.seen && last.lineBottom <= last.barTop, `the last line (bottom ${last.lineBottom}) clears the bar (top ${last.barTop})`);
  await screenshot(page, `note-screen-end-${scheme}`, { fullPage: false });
  if (await page.getByRole("button", { name: "Pause" }).count()) await page.getByRole("button", { name: "Pause" }).click();
}

test("a long note playing at 360×740: the text has the screen, the hint is seen, the last line clears the bar, the spoken word stands out", async ({ app }) => {
  const { context, page } = await newPhone(app);
  const email = await signUp(page);
  const audio = await readFile(JFK_WAV);
  const res = await page.request.post("/transcribe", {
    headers: { origin: app.url },
    multipart: { audio: { name: "jfk.wav", mimeType: "audio/wav", buffer: audio } },
    timeout: 180_000,
  });
  const { id } = (await res.json()) as { id: string };
  assert.ok(id, "a note was transcribed");

  // A long note: the recording's words first (so they are timed), then a few minutes of talk.
  await page.goto(`/transcripts/${id}`);
  const spoken = await noteText(page);
  const editor = await noteEditor(page);
  await editor.fill(`${spoken}\n\n${Array.from({ length: 8 }, (_, i) => `Point ${i + 1}. ${MORE}`).join("\n\n")}\n\nThat is all for today, the end.`);
  await page.getByRole("button", { name: "Done", exact: true }).click();
  await page.getByTestId("save-state").getByText("All changes saved").waitFor({ timeout: 15_000 });

  // At rest, the row of actions: Edit, Fix a word, Make posts, and More with Share, Copy, Delete.
  await page.reload();
  await page.getByTestId("note-insights").waitFor();
  for (const name of ["Edit", "Fix a word", "Make posts from this note", "More"]) await page.getByRole("button", { name, exact: true }).waitFor();
  const row = await page.getByTestId("note-actions").boundingBox();
  assert.ok(row && row.height <= 90, `the actions are one row: ${row?.height} px`);
  const cut = await page.getByTestId("note-actions").evaluate((bar) => [...bar.querySelectorAll("button, button span")].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
  assert.deepEqual(cut, [], "no label in the row is cut");
  // Editing: Done, Fix a word (whole: "Fix a wo…" was cut, issue 57) and More.
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByRole("button", { name: "Done", exact: true }).waitFor();
  const cutWhileEditing = await page.getByTestId("note-actions").evaluate((bar) => [...bar.querySelectorAll("button, button span")].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
  assert.deepEqual(cutWhileEditing, [], "no label is cut while editing");
  await screenshot(page, "note-screen-editing-light", { fullPage: false });
  await page.getByRole("button", { name: "Done", exact: true }).click();
  await page.getByRole("button", { name: "More", exact: true }).click();
  const menu = page.getByRole("dialog", { name: "This note" });
  for (const name of ["Share", "Share as a file…", "Copy the text", "Rewrite as…", "Delete"]) await menu.getByRole("button", { name, exact: true }).waitFor();
  await screenshot(page, "note-screen-more-light", { fullPage: false });
  await menu.getByRole("button", { name: "Close" }).click();
  await assertAccessible(page, "note screen");

  await checkWhilePlaying(page, "light", id);
  await context.close();

  const dark = await newPhone(app, { colorScheme: "dark" });
  await signIn(dark.page, email);
  await dark.page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  await checkWhilePlaying(dark.page, "dark", id);
  await assertAccessible(dark.page, "note screen, dark");
  await dark.context.close();
});
