import { test } from "@/tests/e2e/fixtures.ts";
import assert from "node:assert/strict";
import { assertAccessible, newPersistentPhone, newPhone, screenshot, signUp, waitForOfflineReady } from "@/tests/e2e/support.ts";

test("Chromium reports the app installable (manifest, icons, service worker)", async ({ app }) => {
  const { context, page, close } = await newPersistentPhone(app);
  await signUp(page);
  await waitForOfflineReady(page);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] };
  assert.deepEqual(installabilityErrors, []);
  const manifest = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[] };
  assert.match(manifest.url, /\/manifest\.webmanifest$/);
  assert.deepEqual(manifest.errors, []);
  await close();
});

test("offline, the service worker serves the app shell it has seen and the offline page otherwise", async ({ app }) => {
  const { context, page } = await newPhone(app);
  await signUp(page);
  await waitForOfflineReady(page);
  await context.setOffline(true);
  await page.reload();
  await page.getByRole("heading", { name: "Record a voice note" }).waitFor();
  await page.getByTestId("connectivity").getByText(/Offline/).waitFor();
  await screenshot(page, "record-offline");

  await page.goto("/dictionary").catch(() => undefined);
  await page.getByRole("heading", { name: "You are offline" }).waitFor();
  await assertAccessible(page, "offline");
  await screenshot(page, "offline");

  await context.setOffline(false);
  await page.goto("/dictionary");
  await page.getByRole("heading", { name: "Dictionary" }).waitFor();
  await context.close();
});
