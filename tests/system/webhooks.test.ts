import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { runScript, seedEmbeddedDatabase, startServer, type RunningServer } from "../support/processes.ts";
import { JFK_WAV } from "../support/audio.ts";

// Issue 34: `npm start` for real with WEBHOOKS_ALLOW_PRIVATE=true, and a receiver on 127.0.0.1
// started here: an upload over HTTP ends in a signed transcription.completed at the receiver, which
// the Standard Webhooks reference library verifies.
describe("webhooks from a running server", () => {
  let dataDir: string;
  let server: RunningServer;
  let key: string;
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: "" });
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "vd-webhooks-"));
    await seedEmbeddedDatabase(dataDir);
    const user = await runScript("admin.ts", ["create-user", "--email", "hooks@example.com", "--password", "correct horse battery staple"], env());
    assert.equal(user.code, 0, user.stderr);
    server = await startServer({ ...env(), WEBHOOKS_ALLOW_PRIVATE: "true", JOBS_POLL_SECONDS: "0.5" });
    const created = await runScript("admin.ts", ["create-key", "--email", "hooks@example.com"], env());
    assert.equal(created.code, 0, created.stderr);
    key = created.stdout.trimEnd().split("\n").at(-1)!;
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  });

  after(async () => {
    await server?.stop();
    await new Promise((resolve) => receiver.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  const api = (p: string, init: RequestInit = {}) =>
    fetch(`${server.url}${p}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } });

  test("an upload's transcription.completed reaches the receiver, signed", async () => {
    const port = (receiver.address() as AddressInfo).port;
    const hook = await api("/api/v1/webhooks", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/voicedraft`, events: ["transcription.completed"] }),
    });
    assert.equal(hook.status, 201, await hook.clone().text());
    const { secret } = (await hook.json()) as { secret: string };

    const form = new FormData();
    form.set("audio", new Blob([new Uint8Array(await readFile(JFK_WAV))]), "jfk.wav");
    const upload = await api("/transcribe", { method: "POST", body: form });
    assert.equal(upload.status, 200, await upload.clone().text());
    const transcriptionId = upload.headers.get("x-transcription-id");
    assert.ok(transcriptionId);

    // The job queue delivers it; the test runner's timeout bounds the wait (no timed assertion).
    while (!received.length) await new Promise((r) => setTimeout(r, 200));
    const [delivery] = received;
    const headers = {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    };
    const event = new Webhook(secret).verify(delivery.body, headers) as { type: string; data: { transcription_id: string; transcription: { text: string } } };
    assert.equal(event.type, "transcription.completed");
    assert.equal(event.data.transcription_id, transcriptionId);
    assert.match(event.data.transcription.text, /\bcountry\b/);
  });
});
