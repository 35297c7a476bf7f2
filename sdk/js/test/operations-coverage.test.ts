import assert from "node:assert/strict";
import { test } from "node:test";
import { DOCUMENT_OPERATIONS } from "../dist/generated/operations.js";
import { OPERATIONS, RESOURCE_NAMES, Voicedraft } from "../dist/index.js";

// Every operation of the document either has a method in this client or is named here with why
// not, so an endpoint added to the API shows up as a failing test until someone decides.
const NOT_IN_THIS_CLIENT: Record<string, string> = {
  createOpenAiTranscription: "OpenAI-compatible: call it with the openai SDK",
  deleteAccount: "only the app's signed-in session may delete an account (API keys get 403)",
  createInvitation: "only the app's signed-in session may invite someone (API keys get 403)",
  createPairingCode: "only the app's signed-in session may pair a phone (API keys get 403)",
  listSignedInDevices: "only the app's signed-in session may list its devices (API keys get 403)",
  signOutDevice: "only the app's signed-in session may sign a device out (API keys get 403)",
};

test("every operation of the document is called by the client or named as left out", () => {
  const called = new Set(Object.values(OPERATIONS).map((op) => op.id as string));
  const missing = Object.keys(DOCUMENT_OPERATIONS).filter((id) => !called.has(id) && !(id in NOT_IN_THIS_CLIENT));
  assert.deepEqual(missing, []);
});

test("an operation named as left out is one the document has and the client does not call", () => {
  for (const id of Object.keys(NOT_IN_THIS_CLIENT)) {
    assert.ok(id in DOCUMENT_OPERATIONS, `${id} is not in the document`);
    assert.ok(!Object.values(OPERATIONS).some((op) => op.id === id), `${id} is called by the client`);
  }
});

test("each operation's method and path are the document's", () => {
  for (const op of Object.values(OPERATIONS)) assert.deepEqual({ method: op.method, path: op.path }, DOCUMENT_OPERATIONS[op.id]);
});

test("every operation the client calls is a method of its resource (vd.<namespace>.<method>)", () => {
  const client = new Voicedraft({ apiKey: "k" }) as unknown as Record<string, Record<string, unknown>>;
  const names = RESOURCE_NAMES as Record<string, readonly [string, string]>;
  const missing = Object.keys(OPERATIONS).filter((id) => !names[id] || typeof client[names[id][0]]?.[names[id][1]] !== "function");
  assert.deepEqual(missing, []);
});
