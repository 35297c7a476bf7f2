import { test } from "@/tests/e2e/fixtures.ts";
import assert from "node:assert/strict";
import type { Page } from "@playwright/test";
import { assertAccessible, newPhone, PASSWORD, screenshot, signIn, signUp, uniqueEmail } from "@/tests/e2e/support.ts";

/**
 * Settings → Writing without a writer says who writes in words; the settings' names, which only
 * whoever runs the server can change, are folded under "For the administrator", with the
 * configuration page (issue 57).
 */
async function writingInWords(page: Page): Promise<void> {
  const admin = page.getByTestId("writer-admin");
  await admin.scrollIntoViewIfNeeded();
  const shown = await page.locator("main").innerText();
  assert.match(shown, /Written offline/);
  assert.doesNotMatch(shown, /WRITER_|OPENAI_|=/, "no setting's name or code before the administrator's part is opened");
  assert.equal(await admin.getAttribute("open"), null);
  await screenshot(page, "settings-writing-offline-light", { fullPage: false });
  await admin.getByText("For the administrator").click();
  const opened = await admin.innerText();
  assert.match(opened, /The server's address\s+WRITER_BASE_URL/);
  assert.match(opened, /The model\s+WRITER_MODEL/);
  assert.match(opened, /Its key, if it needs one\s+WRITER_API_KEY/);
  assert.doesNotMatch(opened, /WRITER_[A-Z_]+=/, "words and names, not lines of code");
  await assertAccessible(page, "settings, the administrator's part open");
  await screenshot(page, "settings-writing-admin-light", { fullPage: false });
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "settings-writing-admin-dark", { fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });
  // The configuration page, served by the app.
  await admin.getByRole("link", { name: /How to connect a writer/ }).click();
  await page.waitForURL("**/docs/configuration#connect-a-writer");
  await page.getByRole("heading", { name: "Connect a writer", level: 2 }).waitFor();
  await page.getByRole("rowheader", { name: "WRITER_BASE_URL" }).waitFor();
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360, "the configuration page does not scroll sideways");
  await assertAccessible(page, "the configuration page");
  await screenshot(page, "docs-configuration", { fullPage: false });
  await page.goBack();
  await page.waitForURL("**/settings");
}

test("sign up, create an API key that works once shown, revoke it, sign out and back in", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await page.goto("/");
  await assertAccessible(page, "home");
  // The landing page's main button works and leads to sign-up.
  await page.getByRole("link", { name: "Create a free account" }).click();
  await page.waitForURL("**/sign-up");
  await page.goto("/sign-up");
  await assertAccessible(page, "sign-up");
  await screenshot(page, "sign-up");

  // A too-short password is refused with the reason.
  await page.getByLabel("Email").fill(uniqueEmail());
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.locator("#password-error").getByText(/at least 10 characters/).waitFor();
  // One message per problem: the reason beside its field, not again above the button in API words.
  assert.equal(await page.getByText(/at least 10 characters/).count(), 1);
  // (Next's route announcer is an empty role=alert of its own: count the form's.)
  assert.equal(await page.locator("form").getByRole("alert").count(), 0);

  const email = await signUp(page);
  // API keys live under Settings, one tap from every page's tab bar.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await page.waitForURL("**/settings");
  await writingInWords(page);
  await page.getByRole("link", { name: /^API keys/ }).click();
  await page.waitForURL("**/keys");
  await assertAccessible(page, "keys");
  // Each scope in words, its name small beside it; the whole row, at least 44 px, is the checkbox's target (issue 57).
  const scopes = page.getByTestId("key-scope");
  assert.equal(await scopes.count(), 5);
  for (const row of await scopes.all()) {
    const box = (await row.boundingBox())!;
    assert.ok(box.height >= 44 && box.width >= 44, `a scope's target is ${box.width}×${box.height}`);
  }
  const write = scopes.filter({ hasText: "content:write" });
  assert.match(await write.innerText(), /^Edit your notes and make posts \(never publish them\)\ncontent:write$/);
  // A tap far from the box, on the row's far corner, ticks it.
  // (In the middle of the screen: the tab bar covers its bottom.)
  await write.evaluate((el) => el.scrollIntoView({ block: "center" }));
  const edge = (await write.boundingBox())!;
  await page.mouse.click(edge.x + edge.width - 4, edge.y + edge.height - 3);
  assert.equal(await write.getByRole("checkbox").isChecked(), false);
  await write.getByRole("checkbox").check();
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "keys-scopes-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "keys-scopes-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.getByLabel("Name").fill("laptop script");
  await page.getByLabel(/Edit your notes and make posts/).uncheck();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key").textContent())?.trim() ?? "";
  assert.match(key, /^vd_[0-9A-Za-z]{43}$/);
  await screenshot(page, "keys-created");

  // The key works for programs, with the chosen scopes.
  const withKey = await fetch(`${app.url}/api/v1/dictionary`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(withKey.status, 200);

  // Listed by prefix only; after a reload the secret is gone from the page.
  await page.reload();
  await page.getByText("laptop script").waitFor();
  // What the key may do, in words (not "Scopes: transcribe, dictionary:read, …").
  const may = page.getByRole("list", { name: "What laptop script may do" });
  assert.deepEqual(
    (await may.getByRole("listitem").allInnerTexts()).map((t) => t.replace(/\s+/g, " ")),
    ["Turn recordings into notes transcribe", "See your dictionary of spellings dictionary:read", "Add words to your dictionary dictionary:write", "Read your notes, to-dos and posts content:read"],
  );
  assert.equal(await page.getByText(/^Scopes:/).count(), 0);
  await may.scrollIntoViewIfNeeded();
  await screenshot(page, "keys-list-light", { fullPage: false });
  assert.equal(await page.getByText(key).count(), 0);
  assert.equal(await page.getByText(key.slice(0, 9)).count(), 1);

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Revoke the key laptop script" }).click();
  await page.getByText(/^Revoked/).waitFor();
  const revoked = await fetch(`${app.url}/api/v1/dictionary`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(revoked.status, 401);

  // Sign out ends the session in the database: the old cookie no longer opens anything.
  const [sessionCookie] = (await context.cookies()).filter((c) => c.name.endsWith("next-auth.session-token"));
  assert.ok(sessionCookie, "a session cookie after sign-in");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/sign-in");
  const replayed = await fetch(`${app.url}/api/v1/dictionary`, { headers: { cookie: `${sessionCookie.name}=${sessionCookie.value}` } });
  assert.equal(replayed.status, 401);
  await page.goto("/keys");
  await page.waitForURL("**/sign-in");
  await assertAccessible(page, "sign-in");
  await screenshot(page, "sign-in");

  await signIn(page, email, "not the password");
  await page.getByRole("alert").getByText(/do not match/).waitFor();
  await signIn(page, email, PASSWORD);
  await page.waitForURL("**/record");
  await page.goto("/keys");
  await page.getByText("laptop script").waitFor();
  await context.close();
});

test("before the page is interactive, sign-up and sign-in cannot send the password in a URL", async ({ app }) => {
  // The page as it arrives, before its script runs (here: never): a tap then would submit the form
  // natively. A CI run's sign-up on a loaded machine did, a GET of the page with the password in
  // its query string.
  const context = await app.browser.newContext({ baseURL: app.url, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    for (const [path, button] of [["/sign-up", "Create account"], ["/sign-in", "Sign in"]] as const) {
      await page.goto(path);
      await page.getByLabel("Email").fill(uniqueEmail());
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      assert.equal(await page.getByRole("button", { name: button }).isDisabled(), true, `${path}: the button waits for the page`);
      assert.equal(await page.locator("form").getAttribute("method"), "post", `${path}: sent without the script, the form posts`);
      assert.ok(!page.url().includes("password"), page.url());
    }
  } finally {
    await context.close();
  }
});
