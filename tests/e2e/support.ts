import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import assert from "node:assert/strict";
import type { Browser, BrowserContext, LaunchOptions, Locator, Page } from "@playwright/test";
import { AxeBuilder } from "@axe-core/playwright";
import { ROOT } from "@/tests/support/processes.ts";
import { JFK_WAV } from "@/tests/support/audio.ts";

// The browser tests' helpers: the real app (npm start's launcher, its own DATA_DIR, PocketSphinx)
// driven by Debian's Chromium (tests/e2e/fixtures.ts gives each test its `app`). Phone-sized by
// default; screenshots land in tests/e2e/screenshots/.

export const PHONE = { width: 360, height: 740 };
const SCREENSHOTS = path.join(ROOT, "tests", "e2e", "screenshots");
export const PASSWORD = "correct horse battery staple";

/** The app a test drives, and the worker's Chromium (launched with `launchOptions`); the CSP violations its pages reported. */
export type App = { browser: Browser; url: string; cspViolations: string[]; launchOptions: LaunchOptions };

export async function newPhone(app: App, { colorScheme = "light" }: { colorScheme?: "light" | "dark" } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.browser.newContext({
    baseURL: app.url,
    colorScheme,
    viewport: PHONE,
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: true,
    permissions: ["microphone"],
  });
  await watchCsp(context, app.cspViolations);
  const page = await context.newPage();
  return { context, page };
}

const CSP_MESSAGE = /Content Security Policy|Refused to (load|execute|connect|create|compile|apply|frame)/i;

/** Records every CSP violation a page or its workers report (console messages and violation events). */
async function watchCsp(context: BrowserContext, violations: string[]): Promise<void> {
  const watchPage = (page: Page) => {
    page.on("console", (msg) => {
      if (CSP_MESSAGE.test(msg.text())) violations.push(`${page.url()}: ${msg.text()}`);
    });
    page.on("worker", (worker) =>
      worker.on("console", (msg) => {
        if (CSP_MESSAGE.test(msg.text())) violations.push(`worker ${worker.url()}: ${msg.text()}`);
      }),
    );
  };
  context.on("page", watchPage);
  context.pages().forEach(watchPage);
  await context.exposeBinding("__reportCspViolation", ({ page }, text: string) => violations.push(`${page?.url()}: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
      report?.(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
    });
  });
}

/** A browser profile on disk: Chromium never offers to install an app in an incognito profile. */
export async function newPersistentPhone(app: App): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profile = await mkdtemp(path.join(tmpdir(), "vd-e2e-profile-"));
  const context = await app.browser.browserType().launchPersistentContext(profile, {
    ...app.launchOptions,
    baseURL: app.url,
    viewport: PHONE,
  });
  await watchCsp(context, app.cspViolations);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export const uniqueEmail = () => `e2e-${randomBytes(5).toString("hex")}@example.test`;

export async function signUp(page: Page, email = uniqueEmail()): Promise<string> {
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("**/record").catch(async (err: unknown) => {
    // What the form said instead (a refusal, a field's error), for the failure's message.
    const said = await page.locator('[role="alert"], [id$="-error"]').allTextContents().catch(() => []);
    throw new Error(`sign-up did not reach /record (on ${page.url()}; the page said: ${JSON.stringify(said)}): ${(err as Error).message}`);
  });
  return email;
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * axe-core on the page as it is now: no serious or critical violations. `rules`: only these (the
 * second theme of a page already checked whole differs from the first in its colours alone).
 */
export async function assertAccessible(page: Page, label: string, { rules }: { rules?: string[] } = {}): Promise<void> {
  // Colours are measured as they end, not mid-transition: a busy machine's CI run caught a fading
  // section's buttons at half their contrast (Settings, 2026-12-01). Endless animations (a spinner) are not waited for.
  // At most 2 s: a paused animation's `finished` never settles.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity && a.playState === "running").map((a) => a.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  const axe = new AxeBuilder({ page });
  const results = await (rules ? axe.withRules(rules) : axe.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    [],
    `accessibility violations on ${label}`,
  );
}

/** Fails when a tap at the middle of `target` would land on something else (a toast, a bar). */
export async function assertTappable(target: Locator, what: string): Promise<void> {
  const covered = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit && !el.contains(hit) ? hit.outerHTML.slice(0, 160) : null;
  });
  assert.equal(covered, null, `${what} is covered`);
}

/** A toast covers nothing of what it is about (issue 57): their boxes on screen do not intersect. */
export async function assertToastClear(toast: Locator, about: Locator, what: string): Promise<void> {
  const [t, a] = await Promise.all([toast.boundingBox(), about.boundingBox()]);
  assert.ok(t && a, `both on screen: the toast and ${what}`);
  const intersects = t.x < a.x + a.width && a.x < t.x + t.width && t.y < a.y + a.height && a.y < t.y + t.height;
  assert.equal(intersects, false, `the toast (y ${Math.round(t.y)}–${Math.round(t.y + t.height)}) covers ${what} (y ${Math.round(a.y)}–${Math.round(a.y + a.height)})`);
}

export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  // Animations run to their end first: a sheet caught mid-rise looks see-through.
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage, animations: "disabled" });
}

/** Waits until the service worker controls the page and has this page in its cache. */
export async function waitForOfflineReady(page: Page, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = await page.evaluate(async () => {
      if (!navigator.serviceWorker.controller || !(await caches.has("pages"))) return false;
      return Boolean(await (await caches.open("pages")).match(location.href));
    });
    if (ready) return;
    if (Date.now() > deadline) throw new Error("the service worker did not take over and cache this page in time");
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The note's text as the page shows it (reading, not editing). */
export async function noteText(page: Page): Promise<string> {
  const text = page.getByTestId("note-text");
  await text.waitFor();
  return (await text.textContent()) ?? "";
}

/** The note's editor, opened with "Edit" if the text is shown for reading. */
export async function noteEditor(page: Page): Promise<Locator> {
  const editor = page.getByRole("textbox", { name: "Text of the note" });
  if (!(await editor.isVisible())) await page.getByRole("button", { name: "Edit", exact: true }).click();
  await editor.waitFor();
  return editor;
}

/** Taps (touch) the first occurrence of `word` in the note's text where it stands, as a finger would. */
export async function tapWordInNote(page: Page, word: string): Promise<void> {
  const point = await page.getByTestId("note-text").evaluate((el, w) => {
    // The text is one text node, or a span per word when the note's recording is kept (for the highlight).
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node: Node | null;
    let at = -1;
    while ((node = walker.nextNode()) && (at = node.textContent?.indexOf(w) ?? -1) < 0);
    if (!node || at < 0) throw new Error(`"${w}" is not in the note`);
    const range = new Range();
    range.setStart(node, at);
    range.setEnd(node, at + w.length);
    // Into the middle third of the screen: clear of the top bar, the actions and the tab bar.
    window.scrollBy(0, range.getClientRects()[0].top - window.innerHeight / 3);
    const box = range.getClientRects()[0];
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }, word);
  await page.touchscreen.tap(point.x, point.y);
}

/** How many notes the signed-in account has (the API, with the page's session). */
export async function noteCount(page: Page): Promise<number> {
  const res = await page.request.get("/api/v1/transcriptions?limit=100");
  assert.equal(res.status(), 200);
  return ((await res.json()) as { transcriptions: unknown[] }).transcriptions.length;
}

/** Polls until the account has `count` notes; returns how long that took (ms), or fails after `withinMs`. */
export async function notesArrive(page: Page, count: number, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if ((await noteCount(page)) >= count) return Date.now() - started;
    await page.waitForTimeout(250);
  }
  assert.fail(`${count} note(s) not there within ${withinMs} ms`);
}

/** A note made the quick way: the JFK speech sent to /transcribe with the page's session. Its id. */
export async function uploadNote(page: Page, app: App): Promise<string> {
  const res = await page.request.post("/transcribe", {
    headers: { origin: app.url },
    multipart: { audio: { name: "jfk.wav", mimeType: "audio/wav", buffer: await readFile(JFK_WAV) } },
    timeout: 180_000,
  });
  assert.equal(res.status(), 200, await res.text());
  return ((await res.json()) as { id: string }).id;
}
