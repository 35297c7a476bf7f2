import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser } from "playwright-core";
import { JFK_WAV } from "../support/audio.ts";
import { freePort, ROOT, seedEmbeddedDatabase, startServer, type RunningServer } from "../support/processes.ts";

// Issue 68: Debian's Caddy in front of `npm start`, as docs/phone.md sets it up for a home network:
// deploy/Caddyfile's `tls internal` site (a certificate from Caddy's own authority), under a name
// that is not this computer's (voicedraft.test, mapped to 127.0.0.1 for the browser and the
// clients), so that only https makes the page a secure context. Chromium trusts Caddy's authority
// by its keys (--ignore-certificate-errors-spki-list), as a phone does once its root is installed.
// Its microphone plays the JFK speech, so a recording streams through Caddy as a phone's would.

const CADDY = process.env.CADDY_PATH ?? "/usr/bin/caddy";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const NAME = "voicedraft.test";
const UNKNOWN_KEY_LIMIT = 3;

/** deploy/Caddyfile's home-network site, for `name` at `port`, in front of the app at `upstream`. */
function homeNetworkSite(name: string, port: number, upstream: number): string {
  const shipped = readFileSync(path.join(ROOT, "deploy", "Caddyfile"), "utf8");
  const block = /^voicedraft\.local \{[\s\S]*?^\}/m.exec(shipped)?.[0];
  assert.ok(block, "deploy/Caddyfile has the home-network site");
  return block.replace("voicedraft.local", `https://${name}:${port}`).replace("127.0.0.1:3000", `127.0.0.1:${upstream}`);
}

/** The base64 SHA-256 of a certificate's public key (SPKI): what Chromium's SPKI list names. */
const spkiHash = (pem: string) => createHash("sha256").update(new X509Certificate(pem).publicKey.export({ type: "spki", format: "der" })).digest("base64");

type Answer = { status: number; headers: Record<string, string | string[] | undefined> };

/** One https request through Caddy from a chosen loopback address (so that clients differ), sent to `NAME`. */
function viaCaddy(port: number, pathname: string, { from, headers = {} }: { from: string; headers?: Record<string, string> }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: "127.0.0.1", servername: NAME, port, path: pathname, headers: { host: `${NAME}:${port}`, ...headers }, localAddress: from, rejectUnauthorized: false, agent: false },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("behind Caddy with tls internal (docs/phone.md)", { skip: !existsSync(CADDY) && `no Caddy at ${CADDY}` }, () => {
  let dataDir: string;
  let caddyDir: string;
  let server: RunningServer;
  let caddy: ChildProcess;
  let caddyLog = "";
  let httpsPort: number;
  let browser: Browser;
  let origin: string;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "vd-caddy-app-"));
    caddyDir = await mkdtemp(path.join(tmpdir(), "vd-caddy-"));
    await seedEmbeddedDatabase(dataDir);
    httpsPort = await freePort();
    const httpPort = await freePort();
    origin = `https://${NAME}:${httpsPort}`;
    server = await startServer({
      DATA_DIR: dataDir,
      TRANSCRIBE_ENGINE: "pocketsphinx",
      NEXTAUTH_URL: origin,
      TRUST_PROXY: "true",
      RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE: String(UNKNOWN_KEY_LIMIT),
    });
    const appPort = Number(new URL(server.url).port);
    // Caddy's own data (its authority) in a directory of the test's; no admin endpoint, no port 80.
    const config = `{\n\tadmin off\n\tskip_install_trust\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n}\n\n${homeNetworkSite(NAME, httpsPort, appPort)}\n`;
    await writeFile(path.join(caddyDir, "Caddyfile"), config);
    caddy = spawn(CADDY, ["run", "--config", path.join(caddyDir, "Caddyfile"), "--adapter", "caddyfile"], {
      env: { ...process.env, HOME: caddyDir, XDG_DATA_HOME: path.join(caddyDir, "data"), XDG_CONFIG_HOME: path.join(caddyDir, "config") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    caddy.stdout!.on("data", (d) => (caddyLog += d));
    caddy.stderr!.on("data", (d) => (caddyLog += d));
    const authority = path.join(caddyDir, "data", "caddy", "pki", "authorities", "local");
    for (let i = 0; ; i++) {
      const up = existsSync(path.join(authority, "intermediate.crt")) && (await viaCaddy(httpsPort, "/api/health", { from: "127.0.0.1" }).then((r) => r.status === 200, () => false));
      if (up) break;
      if (i > 120 || caddy.exitCode !== null) throw new Error(`Caddy did not come up:\n${caddyLog}`);
      await sleep(250);
    }
    const trusted = ["root.crt", "intermediate.crt"].map((file) => spkiHash(readFileSync(path.join(authority, file), "utf8")));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        `--host-resolver-rules=MAP ${NAME} 127.0.0.1`,
        `--ignore-certificate-errors-spki-list=${trusted.join(",")}`,
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        `--use-file-for-fake-audio-capture=${JFK_WAV}`,
      ],
    });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    caddy?.kill("SIGTERM");
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(caddyDir, { recursive: true, force: true });
  });

  test("the page is a secure context: the service worker registers, the session cookie is Secure, HSTS is sent; a live recording streams through it to a note", async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const page = await context.newPage();
      const first = await page.goto(`${origin}/sign-up`);
      assert.equal(first?.status(), 200);
      assert.match(first?.headers()["strict-transport-security"] ?? "", /max-age=\d+/);
      assert.equal(await page.evaluate(() => window.isSecureContext), true);
      assert.equal(await page.getByTestId("secure-address-notice").count(), 0, "no line about a secure address");
      await page.getByLabel("Email").fill("caddy@example.test");
      await page.getByLabel("Password", { exact: true }).fill("correct horse battery staple");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL("**/record");
      const session = (await context.cookies()).find((c) => c.name.endsWith("next-auth.session-token"));
      assert.ok(session, "signed in");
      assert.equal(session.name, "__Secure-next-auth.session-token");
      assert.equal(session.secure, true);
      assert.equal(session.httpOnly, true);
      assert.equal(await page.evaluate(() => typeof navigator.mediaDevices?.getUserMedia), "function", "the microphone is there to ask for");
      await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistrations()).some((r) => r.active), undefined, { timeout: 60_000 });
      const health = await page.evaluate(async () => (await (await fetch("/api/health")).json()) as { public_address: { origin: string; secure: boolean } });
      assert.deepEqual(health.public_address, { origin: `https://${NAME}:${httpsPort}`, secure: true });

      // A live recording through Caddy: its pieces stream while it is spoken (captions come back
      // through the proxy), and Stop makes it a note.
      await page.goto(`${origin}/record`);
      await page.getByRole("button", { name: "Start recording" }).click();
      await page.getByTestId("recorder-state").getByText("Recording").waitFor();
      await page.waitForFunction(() => /\p{L}{3}/u.test((document.querySelector('[data-testid="live-captions"]')?.textContent ?? "").replace(/Listening/g, "")), undefined, { timeout: 60_000 });
      await page.getByRole("button", { name: "Stop and save" }).click();
      await page.waitForURL(/\/transcripts\/(?!recordings)[^/]+$/, { timeout: 120_000 });
      const id = new URL(page.url()).pathname.split("/").at(-1)!;
      const note = await page.evaluate(async (noteId) => (await (await fetch(`/api/v1/transcriptions/${noteId}`)).json()) as { text: string }, id);
      assert.ok((note.text.match(/\p{L}+/gu) ?? []).length >= 3, `the recording carried speech: ${note.text}`);
    } finally {
      await context.close();
    }
  });

  test("the client address the app sees is the one Caddy puts in X-Forwarded-For", async () => {
    // 127.0.0.2 sends unknown keys until the app refuses its address.
    const bad = { authorization: `Bearer vd_${"z".repeat(43)}` };
    const answers: number[] = [];
    for (let i = 0; i <= UNKNOWN_KEY_LIMIT + 1; i++) answers.push((await viaCaddy(httpsPort, "/api/v1/dictionary", { from: "127.0.0.2", headers: bad })).status);
    assert.equal(answers.at(-1), 429, `refused at last: ${answers.join(", ")}`);
    // 127.0.0.3 is another person, though Caddy's own connection to the app comes from 127.0.0.1 for
    // both; and naming 127.0.0.2 in its own X-Forwarded-For changes nothing (Caddy replaces it).
    const other = await viaCaddy(httpsPort, "/api/v1/dictionary", { from: "127.0.0.3", headers: { ...bad, "x-forwarded-for": "127.0.0.2" } });
    assert.equal(other.status, 401);
  });
});
