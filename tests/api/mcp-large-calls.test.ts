import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { POST as mcp } from "@/app/mcp/route.ts";
import { createApiKey } from "@/lib/api-keys/create-api-key.ts";
import { SCOPES } from "@/lib/api-keys/scopes.ts";
import { LARGE_CALLS_PER_PERSON } from "@/lib/mcp/handle-mcp.ts";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { call, type CallResult } from "@/tests/support/http.ts";
import { connectMcp } from "@/tests/support/mcp-client.ts";

// Issue 66, item 3: eight transcribe_audio calls of 34.7 MB took the server from 689 to 1,204 MB
// and another person's reads to 1.9 s; sixteen over two keys of one person, 2,077 MB and 20 s.
// The body was parsed twice (the SDK chose the revision, then answered) and the recording copied
// base64 → Buffer → Uint8Array → Blob → multipart; calls were counted per key. Now: parsed once,
// decoded once, and one person's calls take turns, whichever key sends them.

setUpTestDatabase();

const HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
/** 26,000,000 bytes: 34.7 MB of base64, as in the issue. No audio: the tool refuses it as /transcribe would, once it reaches it. */
const AUDIO_BASE64 = Buffer.alloc(26_000_000, 7).toString("base64");
const LARGE = 30_000_000;

const transcribeCall = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "transcribe_audio", arguments: { audio_base64: AUDIO_BASE64, file_name: "big.bin" } } });

/** Counts JSON.parse over a string as large as the call, in this process (the server's). */
function countLargeParses(): { count(): number; stop(): void } {
  const parse = JSON.parse;
  let count = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (typeof text === "string" && text.length > LARGE) count += 1;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  return { count: () => count, stop: () => void (JSON.parse = parse) };
}

function refusalCode(res: CallResult): string {
  assert.equal(res.status, 200, res.text.slice(0, 300));
  assert.equal(res.body.result.isError, true, res.text.slice(0, 300));
  return JSON.parse(res.body.result.content[0].text).error.code;
}

describe("a large transcribe_audio call", () => {
  test("is parsed once, in either revision, and reaches the tool", async () => {
    const user = await createTestUser();
    const parses = countLargeParses();
    after(parses.stop);
    // 2025-11-25, with its length declared (counted among the person's large calls before its body is read).
    const body = transcribeCall(1);
    const legacy = await call(mcp, { method: "POST", path: "/mcp", key: user.key, headers: { ...HEADERS, "content-length": String(Buffer.byteLength(body)) }, body });
    assert.equal(refusalCode(legacy), "unsupported_audio");
    assert.equal(parses.count(), 1, "the 2025-era call's body was parsed once");
    // 2026-07-28, through the SDK's own client (its length not declared).
    const client = await connectMcp(user.key, "2026-07-28");
    const modern = await client.callTool({ name: "transcribe_audio", arguments: { audio_base64: AUDIO_BASE64, file_name: "big.bin" } });
    assert.equal(modern.isError, true);
    assert.equal(JSON.parse((modern.content as { text: string }[])[0].text).error.code, "unsupported_audio");
    assert.equal(parses.count(), 2, "the 2026-07-28 call's body was parsed once");
    parses.stop();
  });
});

describe("one person's transcribe_audio calls take turns, over all their keys", () => {
  test(`${LARGE_CALLS_PER_PERSON} under way; the next is 429 rate_limited over the other key; another person is not held`, async () => {
    assert.equal(LARGE_CALLS_PER_PERSON, 4);
    const user = await createTestUser();
    const { key: secondKey } = await createApiKey({ userId: user.id, input: { name: "second", scopes: [...SCOPES] } });
    const other = await createTestUser();

    // Four calls whose bodies arrive only when released: the person's four large calls under way.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = Array.from({ length: 4 }, (_, i) => {
      const bytes = Buffer.from(transcribeCall(i + 1));
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await released;
          controller.enqueue(bytes);
          controller.close();
        },
      });
      return call(mcp, { method: "POST", path: "/mcp", key: user.key, headers: { ...HEADERS, "content-length": String(bytes.byteLength) }, body });
    });
    // Until all four are counted (authenticated, their bodies not read), however loaded the machine.
    const counted = () => (globalThis as unknown as { voicedraftLargeMcpCalls?: Map<string, number> }).voicedraftLargeMcpCalls?.get(user.id) ?? 0;
    for (let waited = 0; counted() < 4 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(counted(), 4, "the four calls are under way");

    // The fifth, over the person's other key: refused before its body is read.
    const fifthBody = transcribeCall(5);
    const fifth = await call(mcp, { method: "POST", path: "/mcp", key: secondKey, headers: { ...HEADERS, "content-length": String(Buffer.byteLength(fifthBody)) }, body: fifthBody });
    assert.equal(fifth.status, 429, fifth.text.slice(0, 300));
    assert.equal(fifth.body.error.code, "rate_limited");
    assert.equal(fifth.headers.get("retry-after"), "2");
    assert.equal(fifth.body.error.request_id, fifth.headers.get("x-request-id"));
    // Another person's recording is not held behind them.
    const theirs = await call(mcp, { method: "POST", path: "/mcp", key: other.key, headers: HEADERS, json: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "transcribe_audio", arguments: { audio_base64: "AAAA" } } } });
    assert.equal(refusalCode(theirs), "unsupported_audio");

    release();
    const answers = await Promise.all(held);
    assert.deepEqual(answers.map(refusalCode), ["unsupported_audio", "unsupported_audio", "unsupported_audio", "unsupported_audio"]);
    // Their turns ended: the person may send again.
    const again = await call(mcp, { method: "POST", path: "/mcp", key: secondKey, headers: HEADERS, json: { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "transcribe_audio", arguments: { audio_base64: "AAAA" } } } });
    assert.equal(refusalCode(again), "unsupported_audio");
  });
});
