import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { test as base } from "@/tests/e2e/fixtures.ts";
import type { Locator, Page } from "@playwright/test";
import { Webhook as Verifier } from "standardwebhooks";
import { assertAccessible, newPhone, screenshot, signUp, uploadNote, type App } from "@/tests/e2e/support.ts";

// Issue 34 item 6 in the browser, at 360×740 in light and dark: Settings → Webhooks. A refused
// address is said under the URL; an endpoint at a receiver this test runs on 127.0.0.1 is added
// (its secret shown once, copied), sent a test event the receiver verifies with the reference
// library, seen in the delivery log, given a new secret, and deleted. In light also an endpoint
// that fails through the (short) retry schedule: the card says when and why it was disabled.

type Received = { path: string; headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    received.push({ path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
    // /down stands for a receiver that is broken.
    res.writeHead(req.url === "/down" ? 503 : 204).end(req.url === "/down" ? "maintenance" : "");
  });
});
const receiverUrl = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;

const test = base.extend({
  appEnv: [
    async ({}, use) => {
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      // The receiver is on loopback, which only a self-hoster's setting allows; one retry a second
      // lets a failing endpoint be disabled within the test.
      await use({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_RETRY_SCHEDULE: "1" });
      await new Promise((resolve) => receiver.close(resolve));
    },
    { scope: "worker" },
  ],
});

/** Nothing wider than the phone, every button a 44 px target, and no serious accessibility fault. */
async function checkLayout(page: Page, label: string): Promise<void> {
  const { scrollWidth, small } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    small: [...document.querySelectorAll("button")]
      .filter((el) => el.getClientRects().length && !el.closest("[hidden]"))
      .map((el) => ({ text: el.textContent || el.getAttribute("aria-label"), r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.height < 44 || r.width < 44)
      .map(({ text, r }) => `${text} ${r.width}×${r.height}`),
  }));
  assert.ok(scrollWidth <= 360, `${label}: the page scrolls sideways (${scrollWidth} px)`);
  assert.deepEqual(small, [], `${label}: buttons smaller than 44×44`);
  await assertAccessible(page, label);
}

/** The URL wraps, and each line ends after a "/" or "." (never mid-word: "hooks.example.com/v oicedraft", issue 57). */
/** The text of an element as it is laid out, line by line. */
function linesOf(el: Locator): Promise<string[]> {
  return el.evaluate((el) => {
    const found: string[] = [];
    let top = -Infinity;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.textContent!.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (rect.top > top + 2) found.push("");
        top = Math.max(top, rect.top);
        found[found.length - 1] += node.textContent![i];
      }
    }
    return found;
  });
}

async function urlBreaksAtSlashesAndDots(url: Locator): Promise<void> {
  const lines = await linesOf(url);
  assert.ok(lines.length >= 2, `the URL is on one line: ${JSON.stringify(lines)}`);
  for (const line of lines.slice(0, -1)) assert.match(line, /[/.]$/, `a line of the URL ends mid-word: ${JSON.stringify(lines)}`);
}

/** Waits until the receiver has `count` requests on `path` (the test runner's timeout is the limit). */
async function receivedAt(path: string, count: number): Promise<Received[]> {
  for (;;) {
    const got = received.filter((r) => r.path === path);
    if (got.length >= count) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function verify(secret: string, r: Received): { type: string; data: Record<string, unknown> } {
  const headers = { "webhook-id": String(r.headers["webhook-id"]), "webhook-timestamp": String(r.headers["webhook-timestamp"]), "webhook-signature": String(r.headers["webhook-signature"]) };
  return new Verifier(secret).verify(r.body, headers) as { type: string; data: Record<string, unknown> };
}

/** Adds an endpoint through the sheet; returns the secret it shows once (copied with Copy). */
async function addWebhook(page: Page, url: string, description: string, events: string[] = []): Promise<string> {
  await page.getByRole("button", { name: "Add a webhook" }).click();
  const sheet = page.getByRole("dialog", { name: "Add a webhook" });
  await sheet.getByLabel("URL").fill(url);
  await sheet.getByLabel("Description (optional)").fill(description);
  for (const event of events) await sheet.locator(`input[value="${event}"]`).check();
  await sheet.getByRole("button", { name: "Add webhook" }).click();
  return readSecret(page);
}

async function readSecret(page: Page): Promise<string> {
  const sheet = page.getByRole("dialog", { name: "Your signing secret" });
  await sheet.getByText("shown only once").waitFor();
  const secret = (await sheet.getByTestId("secret-value").textContent())!.trim();
  assert.match(secret, /^whsec_[A-Za-z0-9+/=]{20,}$/);
  await sheet.getByRole("button", { name: "Copy secret" }).click();
  await sheet.getByRole("button", { name: "Copied", exact: true }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
  return secret;
}

async function walkThrough(app: App, scheme: "light" | "dark"): Promise<void> {
  const { context, page } = await newPhone(app, { colorScheme: scheme });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signUp(page);
  await page.goto("/settings");
  await page.getByRole("link", { name: /Webhooks/ }).click();
  await page.waitForURL("**/webhooks");
  await page.getByText("No webhooks yet").waitFor();

  // A cloud metadata address: refused by the server, said under the URL, the sheet stays open.
  await page.getByRole("button", { name: "Add a webhook" }).click();
  const add = page.getByRole("dialog", { name: "Add a webhook" });
  // It opens on its first field, not on ✕ (issue 69).
  await add.getByLabel("URL").waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), "webhook-url");
  // Said in words: where it sends, and each event (its name for programs small under it).
  assert.match(await add.innerText(), /Where Voicedraft sends each event: the web address your receiver gives you/);
  assert.doesNotMatch(await add.innerText(), /POSTs/);
  assert.match(await add.locator("label", { hasText: "transcription.completed" }).innerText(), /^A note is transcribed\ntranscription\.completed$/);
  await add.getByLabel("URL").fill("http://169.254.169.254/latest/meta-data/");
  await add.getByRole("button", { name: "Add webhook" }).click();
  await add.getByText(/Voicedraft does not send to this address: 169\.254\.169\.254 is a cloud metadata address/).waitFor();
  assert.equal(await add.getByLabel("URL").getAttribute("aria-invalid"), "true");
  await checkLayout(page, `add with a refused URL (${scheme})`);
  await add.evaluate((sheet) => (sheet.scrollTop = 0));
  await screenshot(page, `webhooks-add-error-${scheme}`, { fullPage: false });
  await add.getByRole("button", { name: "Close" }).click();

  // Added at the receiver: the secret once. (A path long enough to wrap on the card.)
  const path = `/voicedraft-events/hook-${scheme}`;
  const secret = await addWebhook(page, receiverUrl(path), "n8n: new transcripts", ["note.deleted"]);
  await checkLayout(page, `the new secret (${scheme})`);
  await screenshot(page, `webhooks-new-secret-${scheme}`, { fullPage: false });
  await page.getByRole("button", { name: "I have copied it" }).click();
  const card = page.getByTestId("webhook").filter({ hasText: "n8n: new transcripts" });
  await card.getByText("Sends when: a note is transcribed; a note is deleted.").waitFor();
  assert.equal(await card.getByTestId("webhook-url").textContent(), receiverUrl(path));
  await urlBreaksAtSlashesAndDots(card.getByTestId("webhook-url"));
  // Its name once, in whole words; the address once, under it (issue 69).
  const nameWords = new Set("n8n: new transcripts".split(" "));
  for (const line of await linesOf(card.getByTestId("webhook-name"))) assert.ok(line.trim().split(/\s+/).every((w) => nameWords.has(w)), `whole words: ${line}`);
  assert.equal((await card.innerText()).split(receiverUrl(path).replace(/^https?:\/\//, "")).length, 2, "the address shows once");

  // The test event: its outcome on the card, and at the receiver, signed with that secret.
  await card.getByRole("button", { name: "Send test" }).click();
  await card.getByTestId("test-result").getByText(/Test delivered: your endpoint answered 204 in \d+ ms\./).waitFor();
  const [delivered] = await receivedAt(path, 1);
  const event = verify(secret, delivered);
  assert.equal(event.type, "webhook.test");
  await checkLayout(page, `a webhook after its test (${scheme})`);
  await screenshot(page, `webhooks-list-${scheme}`, { fullPage: false });

  // The delivery log: the test with its attempt; sent again from there.
  await card.getByRole("button", { name: "Deliveries" }).click();
  const log = page.getByRole("dialog", { name: /^Deliveries to 127\.0\.0\.1/ });
  const row = log.getByTestId("webhook-delivery").first();
  await row.getByText("Test event").waitFor();
  await row.getByText("Delivered").waitFor();
  assert.match((await row.getByTestId("webhook-attempt").first().textContent()) ?? "", /^204\d+ ms/);
  await row.getByRole("button", { name: "Send this test event again" }).click();
  await row.getByTestId("webhook-attempt").nth(1).waitFor();
  const [, again] = await receivedAt(path, 2);
  assert.equal(again.headers["webhook-id"], delivered.headers["webhook-id"], "a redelivery keeps its webhook-id");
  await checkLayout(page, `the delivery log (${scheme})`);
  await screenshot(page, `webhooks-deliveries-${scheme}`, { fullPage: false });
  await log.getByRole("button", { name: "Close" }).click();

  // A new secret, shown once; the next test is signed with it (and still with the old one).
  await card.getByTestId("webhook-settings").click();
  await page.getByRole("dialog", { name: "Webhook settings" }).getByRole("button", { name: "New secret…" }).click();
  await page.getByRole("button", { name: "Make a new secret" }).click();
  const rotated = await readSecret(page);
  assert.notEqual(rotated, secret);
  await page.getByRole("dialog", { name: "Your signing secret" }).getByText("previous secret keeps working for 24 hours").waitFor();
  await screenshot(page, `webhooks-rotated-secret-${scheme}`, { fullPage: false });
  await page.getByRole("button", { name: "I have copied it" }).click();
  await card.getByRole("button", { name: "Send test" }).click();
  await card.getByTestId("test-result").getByText(/Test delivered/).waitFor();
  const third = (await receivedAt(path, 3))[2];
  assert.equal(verify(rotated, third).type, "webhook.test");
  assert.equal(verify(secret, third).type, "webhook.test");

  // Deleted after a confirmation.
  await card.getByTestId("webhook-settings").click();
  await page.getByRole("button", { name: "Delete…" }).click();
  await page.getByTestId("delete-webhook").getByText("Delete “n8n: new transcripts”?").waitFor();
  await page.getByRole("button", { name: "Delete webhook" }).click();
  await page.getByText("No webhooks yet").waitFor();
  assert.equal(await page.getByTestId("webhook").count(), 0);

  if (scheme === "light") await disabledAfterFailures(page, app);
  await context.close();
}

/** A receiver failing through the whole retry schedule: the card says when and why it was disabled, and turns it on again. */
async function disabledAfterFailures(page: Page, app: App): Promise<void> {
  await addWebhook(page, receiverUrl("/down"), "Home Assistant");
  await page.getByRole("button", { name: "I have copied it" }).click();
  await uploadNote(page, app);
  await receivedAt("/down", 2);
  const card = page.getByTestId("webhook").filter({ hasText: "Home Assistant" });
  for (;;) {
    await page.reload();
    await card.waitFor();
    if (await card.getByTestId("webhook-disabled").count()) break;
    await page.waitForTimeout(500);
  }
  await card.getByTestId("webhook-disabled").getByText(/^Disabled on .+ because every delivery failed for 1 second \(the last: Answered 503/).waitFor();
  await card.getByText("Disabled", { exact: true }).waitFor();
  await checkLayout(page, "a disabled webhook");
  // The card under the header, for its picture (the tab bar stays where it is).
  await card.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 64));
  await screenshot(page, "webhooks-disabled-light", { fullPage: false });
  await card.getByRole("button", { name: "Turn on again" }).click();
  await card.getByText("On", { exact: true }).waitFor();
  assert.equal(await card.getByTestId("webhook-disabled").count(), 0);
}

test("Settings → Webhooks in light: a refused URL, add, the secret once, test, deliveries, a new secret, delete, and a disabled endpoint", async ({ app }) => {
  await walkThrough(app, "light");
});

test("Settings → Webhooks in dark", async ({ app }) => {
  await walkThrough(app, "dark");
});
