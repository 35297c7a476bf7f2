import { test } from "@/tests/e2e/fixtures.ts";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { assertAccessible, newPhone, noteEditor, noteText, screenshot, signUp, tapWordInNote } from "@/tests/e2e/support.ts";

// Every page at 360×740 in the light and the dark theme: no sideways scrolling, no text in its
// own background colour or in the browser's default font, every control at least 44×44 px, and
// axe finds nothing serious.

// A string, not a function: tsx would wrap the function's inner closures in helpers the page lacks.
const FIND_PROBLEMS = `(() => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) problems.push("horizontal scroll: " + root.scrollWidth + " > " + root.clientWidth);
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return r.width > 1 && r.height > 1 && r.right > 0 && r.left < root.clientWidth && style.visibility !== "hidden" && Number(style.opacity) > 0 && !el.closest("dialog:not([open])");
  };
  const name = (el) => el.tagName.toLowerCase() + " “" + (el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 40) + "”";
  const opaque = (color) => !/rgba\\(.*, 0\\)$/.test(color) && color !== "transparent";
  const backgroundOf = (el) => {
    for (let at = el; at; at = at.parentElement) {
      const bg = getComputedStyle(at).backgroundColor;
      if (opaque(bg)) return bg;
    }
    return "rgb(255, 255, 255)";
  };
  for (const el of document.querySelectorAll("body *")) {
    const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!hasText || !visible(el)) continue;
    const color = getComputedStyle(el).color;
    if (color === backgroundOf(el)) problems.push("text colour equals its background (" + color + "): " + name(el));
    // Text outside the app's frame falls back to the browser's default font (a serif).
    if (/^"?Times New Roman"?$/.test(getComputedStyle(el).fontFamily)) problems.push("the browser's default font: " + name(el));
  }
  const interactive = "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=tab], [role=button], [tabindex]:not([tabindex='-1'])";
  for (const el of document.querySelectorAll(interactive)) {
    if (!visible(el)) continue;
    let r = el.getBoundingClientRect();
    // A checkbox's target is the checkbox and its label together.
    if (el.type === "checkbox" || el.type === "radio") {
      for (const label of el.labels || []) {
        const l = label.getBoundingClientRect();
        const left = Math.min(r.left, l.left), top = Math.min(r.top, l.top);
        r = new DOMRect(left, top, Math.max(r.right, l.right) - left, Math.max(r.bottom, l.bottom) - top);
      }
    }
    if (r.width < 43.5 || r.height < 43.5) problems.push("tap target " + Math.round(r.width) + "×" + Math.round(r.height) + ": " + name(el));
  }
  return problems;
})()`;

async function check(page: Page, name: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForTimeout(100);
    const problems = (await page.evaluate(FIND_PROBLEMS)) as string[];
    assert.deepEqual(problems, [], `${name} (${colorScheme})`);
    // The dark theme changes only colours: axe checks what depends on them there (contrast, links told apart from text), everything in the light one.
    await assertAccessible(page, `${name} (${colorScheme})`, colorScheme === "dark" ? { rules: ["color-contrast", "link-in-text-block"] } : {});
    await screenshot(page, `${name}-${colorScheme}`);
  }
}

test("every page fits a 360 px phone in both themes, with big enough targets and readable text", async ({ app }) => {
  const { context, page } = await newPhone(app);
  for (const [path, name, heading] of [
    ["/", "landing", "Speak your thoughts"],
    ["/sign-in", "sign-in", "Welcome back"],
    ["/sign-up", "sign-up", "Create your account"],
    ["/offline", "offline", "You are offline"],
  ]) {
    await page.goto(path);
    await page.getByRole("heading", { name: heading }).waitFor();
    await check(page, name);
  }

  await signUp(page);
  // A new account: every list says what to do first.
  for (const [path, name, text] of [
    ["/transcripts", "notes-empty", "No notes yet"],
    ["/content", "posts-empty", "No posts yet"],
  ] as const) {
    await page.goto(path);
    await page.getByText(text).waitFor();
    await check(page, name);
  }
  // Content for every screen, through the API with the session: a note, a recording in parts,
  // a dictionary word, a channel and a post.
  const audio = await readFile(JFK_WAV);
  // Cookie-authenticated writes must come from the site itself.
  const sameSite = { origin: app.url };
  const upload = (fields: Record<string, string>) =>
    page.request.post("/transcribe", { headers: sameSite, multipart: { ...fields, audio: { name: "jfk.wav", mimeType: "audio/wav", buffer: audio } }, timeout: 180_000 });
  const note = (await (await upload({})).json()) as { id: string };
  assert.ok(note.id, "a note was transcribed");
  await upload({ recording_id: "layout-rec", recording_part: "0" });
  await upload({ recording_id: "layout-rec", recording_part: "1" });
  assert.equal((await page.request.post("/api/v1/dictionary/add", { headers: sameSite, data: { misspelling: "cooper netties", correct_spelling: "Kubernetes" } })).status(), 201);
  const channel = await page.request.post("/api/v1/channels", { headers: sameSite, data: { name: "My LinkedIn", platform: "linkedin" } });
  assert.equal(channel.status(), 201);
  const master = (await (await page.request.post("/api/v1/content/items", { headers: sameSite, data: { source_transcription_id: note.id } })).json()) as { item: { id: string } };
  const target = { channel_id: ((await channel.json()) as { channel: { id: string } }).channel.id, preset_id: "builtin-standard" };
  await page.request.post(`/api/v1/content/items/${master.item.id}/variants`, { headers: sameSite, data: { client_request_id: "layout", targets: [target] } });

  for (const [path, name, heading] of [
    ["/record", "record", "Record a voice note"],
    ["/transcripts", "notes", "Notes"],
    [`/transcripts/${note.id}`, "note", /./],
    ["/transcripts/recordings/layout-rec", "note-joined", /./],
    ["/content", "posts", "Posts"],
    [`/content/${master.item.id}`, "post", "Your posts"],
    ["/settings", "settings", "Settings"],
    ["/dictionary", "dictionary", "Dictionary"],
    ["/channels", "channels", "Channels"],
    ["/keys", "keys", "API keys"],
    ["/ask", "ask-screen", "Ask your notes"],
    [`/ask?q=${encodeURIComponent("What did I say about my country?")}`, "ask-screen-answer", "Ask your notes"],
  ] as const) {
    await page.goto(path);
    await page.getByRole("heading", { name: heading, level: name === "post" ? 2 : 1 }).first().waitFor();
    await page.waitForLoadState("networkidle");
    await check(page, name);
    if (name === "note") {
      // The note's other states: the text as recognized, and the fix-a-word sheet.
      await page.getByRole("tab", { name: "As recognized" }).click();
      await page.getByTestId("original-text").waitFor();
      await check(page, "note-as-recognized");
      await page.getByRole("tab", { name: "Text" }).click();
      const firstWord = (await noteText(page)).match(/[\p{L}']+/u)![0];
      await tapWordInNote(page, firstWord);
      await page.getByRole("dialog", { name: "Fix a word" }).waitFor();
      assert.equal(await page.getByLabel("Heard as").inputValue(), firstWord);
      await check(page, "note-fix-word");
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: "Fix a word" }).waitFor({ state: "hidden" });
      await noteEditor(page);
      await check(page, "note-editing");
    }
  }
  // Record while recording (the fake microphone plays) and just after Stop, in a tab of its own:
  // last, so the toast announcing its note cannot cover a page being checked (recording.test.ts
  // follows that note).
  const rec = await context.newPage();
  await rec.goto("/record");
  await rec.getByRole("button", { name: "Start recording" }).click();
  await rec.getByTestId("recorder-state").getByText("Recording").waitFor();
  await rec.waitForTimeout(1500);
  await check(rec, "record-recording");
  await rec.getByRole("button", { name: "Stop and save" }).click();
  await rec.getByTestId("progress-card").waitFor();
  await check(rec, "record-after-stop");

  await context.close();
});

test("the signed-in pages fit a 1280×800 desktop window in both themes", async ({ app }) => {
  const context = await app.browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signUp(page);
  for (const [path, name, heading] of [
    ["/record", "desktop-record", "Record a voice note"],
    ["/transcripts", "desktop-notes", "Notes"],
    ["/content", "desktop-posts", "Posts"],
    ["/settings", "desktop-settings", "Settings"],
    ["/dictionary", "desktop-dictionary", "Dictionary"],
  ] as const) {
    await page.goto(path);
    await page.getByRole("heading", { name: heading, level: 1 }).first().waitFor();
    await page.waitForLoadState("networkidle");
    await check(page, name);
  }
  await context.close();
});
