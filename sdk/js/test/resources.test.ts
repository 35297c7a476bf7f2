import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { before, describe, test } from "node:test";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { NAMESPACES, OPERATIONS, RESOURCE_NAMES, verifyWebhook, Voicedraft, WebhookVerificationError } from "../dist/index.js";
import { getService, type Service } from "./service.ts";

// The resource namespaces (vd.dictionary.add, vd.webhooks.create, …), generated from the document's tags with the
// same names as the Python SDK's (tests/unit/generated-clients.test.ts compares the two tables).
// The generator's LEFT_OUT (scripts/generate-clients.ts): the OpenAI-compatible upload, and what only the app's
// signed-in session may do.
const LEFT_OUT = new Set(["createOpenAiTranscription", "deleteAccount", "createInvitation", "createPairingCode", "listSignedInDevices", "signOutDevice"]);

describe("resource namespaces", () => {
  let service: Service;
  let client: Voicedraft;
  before(async () => {
    service = await getService();
    client = new Voicedraft({ baseUrl: service.baseUrl, apiKey: service.apiKey });
  });

  test("every tagged operation of the document has a method in its namespace", async () => {
    const doc = (await client.service.getOpenApi()) as unknown as { paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>> };
    const tagged = Object.values(doc.paths).flatMap((item) => Object.values(item)).filter((op) => op.operationId && op.tags?.length);
    assert.ok(tagged.length >= 60);
    const names = RESOURCE_NAMES as Record<string, readonly [string, string]>;
    const namespaces = client as unknown as Record<string, Record<string, unknown>>;
    for (const { operationId } of tagged) {
      if (LEFT_OUT.has(operationId!)) continue;
      const [ns, method] = names[operationId!] ?? [];
      assert.ok(ns, `${operationId} has no resource name`);
      assert.equal(typeof namespaces[ns][method], "function", `vd.${ns}.${method} (${operationId})`);
    }
    for (const ns of NAMESPACES) assert.equal(typeof namespaces[ns], "object", `vd.${ns}`);
  });

  test("dictionary add, list and delete through vd.dictionary", async () => {
    const misspelling = `cooper netties ${randomBytes(4).toString("hex")}`;
    const added = await client.dictionary.add({ misspelling, correct_spelling: "Kubernetes" });
    assert.equal(added.created, true);
    assert.ok((await client.dictionary.list()).entries.some((e) => e.misspelling === misspelling));
    const { deleted } = await client.dictionary.delete({ misspelling });
    assert.equal(deleted.correct_spelling, "Kubernetes");
  });

  test("notes list through vd.notes", async () => {
    const page = await client.notes.list({ limit: 1 });
    assert.ok(Array.isArray(page.transcriptions));
  });

  test("webhooks create, list and delete through vd.webhooks", async () => {
    const created = await client.webhooks.create({ url: "https://example.com/hook", events: ["transcription.completed"], description: "names test" });
    assert.match(created.secret, /^whsec_/);
    assert.ok((await client.webhooks.list()).webhooks.some((w) => w.id === created.webhook.id));
    const { deleted } = await client.webhooks.delete(created.webhook.id);
    assert.equal(deleted.id, created.webhook.id);
  });

  test("a delivery from the service verifies with verifyWebhook and the secret vd.webhooks.create gave", async () => {
    // A receiver on this machine (the suites' service allows private addresses).
    const received: { body: string; headers: Record<string, string> }[] = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        received.push({ body, headers: req.headers as Record<string, string> });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const { port } = receiver.address() as AddressInfo;
    try {
      const created = await client.webhooks.create({ url: `http://127.0.0.1:${port}/hook`, events: ["transcription.completed"] });
      await client.webhooks.test(created.webhook.id);
      for (let i = 0; i < 200 && !received.length; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(received.length, 1, "the test event arrived");
      const event = (await verifyWebhook(received[0].body, received[0].headers, created.secret)) as { type: string };
      assert.equal(event.type, "webhook.test");
      await assert.rejects(verifyWebhook(received[0].body.replace("}", ' }'), received[0].headers, created.secret), WebhookVerificationError);
      await client.webhooks.delete(created.webhook.id);
    } finally {
      receiver.close();
    }
  });

  test("0.2's flat methods are still there; one works and warns once that it is deprecated", async () => {
    const flat = client as unknown as Record<string, unknown>;
    const gone = Object.keys(OPERATIONS).filter((id) => typeof flat[id] !== "function");
    assert.deepEqual(gone, [], "every operation the client calls keeps its 0.2 name, deprecated");
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on("warning", listen);
    try {
      const first = await client.listDictionary();
      await client.listDictionary();
      assert.ok(Array.isArray(first.entries));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", listen);
    }
    const ours = warnings.filter((w) => w.message.includes("listDictionary"));
    assert.equal(ours.length, 1);
    assert.equal(ours[0].name, "DeprecationWarning");
    assert.match(ours[0].message, /use vd\.dictionary\.list\(\)/);
  });
});
