import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { assertAccessible, newPhone, PASSWORD, screenshot, signIn, signUp, startApp, uniqueEmail, type App } from "@/tests/e2e/support.ts";

let app: App;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.stop();
});

test("sign up, create an API key that works once shown, revoke it, sign out and back in", async () => {
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
  await page.getByRole("link", { name: /^API keys/ }).click();
  await page.waitForURL("**/keys");
  await assertAccessible(page, "keys");
  await page.getByLabel("Name").fill("laptop script");
  await page.getByLabel("content:write").uncheck();
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

test("before the page is interactive, sign-up and sign-in cannot send the password in a URL", async () => {
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
