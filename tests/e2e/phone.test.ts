import { test } from "@/tests/e2e/fixtures.ts";
import assert from "node:assert/strict";
import { assertAccessible, newPhone, screenshot, signUp } from "@/tests/e2e/support.ts";

// Issue 68, "On your phone in two minutes": a signed-in computer shows Settings → Add a phone's QR
// code; a second browser (the phone) opens the code's link and lands signed in, with no password;
// the computer sees it arrive in Signed-in devices and can sign it out. Both themes at 360×740.

for (const theme of ["light", "dark"] as const) {
  test(`a phone paired by its code lands signed in (${theme})`, async ({ app }) => {
    const computer = await newPhone(app, { colorScheme: theme });
    const email = await signUp(computer.page);
    await computer.page.goto("/settings");
    const addPhone = computer.page.getByTestId("add-phone");
    await addPhone.scrollIntoViewIfNeeded();
    await addPhone.getByRole("button", { name: "Show a QR code" }).click();
    const qr = computer.page.getByTestId("qr-code");
    await qr.locator("svg").waitFor();
    const link = (await qr.getAttribute("data-value")) ?? "";
    const code = (await computer.page.getByTestId("pairing-code").innerText()).trim();
    assert.equal(link, `${app.url}/pair#${code}`);
    await computer.page.getByRole("heading", { name: "Add a phone" }).scrollIntoViewIfNeeded();
    await assertAccessible(computer.page, `Settings → Add a phone (${theme})`);
    await screenshot(computer.page, `settings-add-phone-${theme}`, { fullPage: false });

    // The phone: another browser, never signed in, opens the link.
    const phone = await newPhone(app, { colorScheme: theme });
    await phone.page.goto(link);
    await phone.page.waitForURL("**/record");
    await phone.page.getByRole("button", { name: "Start recording" }).waitFor();
    assert.equal(await phone.page.getByTestId("secure-address-notice").count(), 0, "a loopback address is a secure context");
    const who = await phone.page.evaluate(async () => (await (await fetch("/api/auth/session")).json()) as { user?: { id?: string } });
    assert.ok(who.user?.id, "the phone has a session");
    await screenshot(phone.page, `phone-paired-record-${theme}`, { fullPage: false });

    // The computer sees it come, and lists it with a way to sign it out.
    await computer.page.getByText("Phone added.").waitFor();
    const devices = computer.page.getByTestId("signed-in-device");
    await assert.doesNotReject(devices.nth(1).waitFor());
    assert.equal(await devices.count(), 2);
    const phoneRow = devices.filter({ hasText: "Added with a code" });
    await computer.page.getByRole("heading", { name: "Signed-in devices" }).evaluate((h) => h.scrollIntoView({ block: "start" }));
    await screenshot(computer.page, `settings-devices-${theme}`, { fullPage: false });
    assert.match(await devices.filter({ hasText: "(this device)" }).innerText(), /Signed in/);

    // A used code signs nobody else in.
    const stranger = await newPhone(app, { colorScheme: theme });
    await stranger.page.goto(link);
    await stranger.page.getByText("That code was used already or has expired").waitFor();
    await screenshot(stranger.page, `pair-code-used-${theme}`, { fullPage: false });

    // Sign the phone out from the computer: the phone is back at sign-in.
    computer.page.once("dialog", (dialog) => void dialog.accept());
    await phoneRow.getByRole("button", { name: "Sign out" }).click();
    await phoneRow.waitFor({ state: "detached" });
    await phone.page.goto("/settings");
    await phone.page.waitForURL("**/sign-in");
    assert.ok(email);
    for (const context of [computer.context, phone.context, stranger.context]) await context.close();
  });
}

test("a page at a plain http address says why it cannot record, and Record explains it", async ({ app, playwright, launchOptions }) => {
  // The same app by a name that is not this computer's: plain http there is not a secure context.
  const port = new URL(app.url).port;
  const browser = await playwright.chromium.launch({ ...launchOptions, args: [...(launchOptions.args ?? []), "--host-resolver-rules=MAP voicedraft.test 127.0.0.1"] });
  try {
    for (const theme of ["light", "dark"] as const) {
      const context = await browser.newContext({ baseURL: `http://voicedraft.test:${port}`, colorScheme: theme, viewport: { width: 360, height: 740 }, hasTouch: true });
      const page = await context.newPage();
      await page.goto("/sign-up");
      const notice = page.getByTestId("secure-address-notice");
      await notice.waitFor();
      assert.match(await notice.innerText(), /Recording, offline use and installing need a secure \(https\) address/);
      await screenshot(page, `insecure-sign-up-${theme}`, { fullPage: false });
      await signUp(page);
      const recorder = page.getByTestId("recorder-insecure");
      await recorder.waitFor();
      assert.doesNotMatch(await recorder.innerText(), /Reload/);
      assert.equal(await page.getByRole("button", { name: "Start recording" }).count(), 0);
      await assertAccessible(page, `Record at a plain http address (${theme})`);
      await screenshot(page, `insecure-record-${theme}`, { fullPage: false });
      // The steps, as the app serves them.
      await notice.getByRole("link", { name: "How to set one up" }).click();
      await page.waitForURL("**/docs/phone");
      await page.getByRole("heading", { name: "Caddy on your home network", level: 2 }).waitFor();
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360, "the steps do not scroll sideways");
      if (theme === "light") await screenshot(page, "docs-phone", { fullPage: false });
      await context.close();
    }
  } finally {
    await browser.close();
  }
});
