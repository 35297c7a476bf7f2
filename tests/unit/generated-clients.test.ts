import assert from "node:assert/strict";
import { test } from "node:test";
import { generatedClientFiles, staleClientFiles } from "@/scripts/generate-clients.ts";

// The clients' generated parts (the document, the TypeScript types, the Python operation table)
// are checked in; a contract changed without `npm run generate:clients` fails here.

test("npm run generate:clients leaves no difference: the generated client files match the contracts", async () => {
  assert.deepEqual(await staleClientFiles(), []);
});

test("the generated types and the JS and Python operation tables name every operation", async () => {
  const files = await generatedClientFiles();
  const doc = JSON.parse(files["sdk/openapi.json"]) as { paths: Record<string, Record<string, { operationId: string }>> };
  const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId).filter(Boolean));
  assert.ok(ids.length >= 38, `${ids.length} operations`);
  for (const id of ids) {
    assert.match(files["sdk/js/src/generated/openapi.ts"], new RegExp(`\\b${id}: \\{`), `types for ${id}`);
    assert.match(files["sdk/js/src/generated/operations.ts"], new RegExp(`\\b${id}: \\{ method: "`), `JS table row for ${id}`);
    assert.match(files["sdk/python/src/voicedraft/_document_operations.py"], new RegExp(`"${id}": DocumentOperation`), `python row for ${id}`);
  }
});

test("the JS and Python SDKs name every resource method the same (Python in snake_case)", async () => {
  const files = await generatedClientFiles();
  const js = Object.fromEntries(
    [...files["sdk/js/src/generated/resources.ts"].matchAll(/^ {2}(\w+): \["(\w+)", "(\w+)"\],$/gm)].map(([, id, ns, m]) => [id, `${ns}.${m}`]),
  );
  const py = Object.fromEntries(
    [...files["sdk/python/src/voicedraft/_resources.py"].matchAll(/^ {4}"(\w+)": \("(\w+)", "(\w+)"\),$/gm)].map(([, id, ns, m]) => [id, `${ns}.${m}`]),
  );
  assert.ok(Object.keys(js).length >= 60, `${Object.keys(js).length} names`);
  const snakeJs = Object.fromEntries(Object.entries(js).map(([id, name]) => [id, name.replace(/(?<!^)(?=[A-Z])/g, "_").toLowerCase()]));
  assert.deepEqual(py, snakeJs);
  assert.equal(js.addDictionaryEntry, "dictionary.add");
  assert.equal(js.rotateWebhookSecret, "webhooks.rotateSecret");
  assert.equal(js.listChannels, "channels.list");
  assert.equal(js.exportUserData, "account.export");
});
