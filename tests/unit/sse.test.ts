import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { eventStream, formatEvent } from "@/lib/http/sse.ts";

async function readAll(res: Response): Promise<string> {
  return new TextDecoder().decode(await res.arrayBuffer());
}

test("events are data lines of JSON, each ended by a blank line; the headers say event-stream and no-transform", async () => {
  const res = eventStream(async (sink) => {
    sink.send({ type: "a", text: "line one\nline two" });
    sink.send({ type: "b" });
  });
  assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
  assert.equal(res.headers.get("cache-control"), "no-cache, no-transform");
  assert.equal(
    await readAll(res),
    ': keep-alive\n\ndata: {"type":"a","text":"line one\\nline two"}\n\ndata: {"type":"b"}\n\n',
  );
  assert.equal(formatEvent({ a: 1 }), 'data: {"a":1}\n\n');
});

test("a keep-alive comment goes out at once and then every interval while the producer waits", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const res = eventStream(
    async (sink) => {
      await released;
      sink.send({ type: "done" });
    },
    { keepAliveMs: 20 },
  );
  // The producer waits until the reader has seen three comments: one at once, two from the timer
  // (which is unref'd, as a server's open socket keeps the process alive; here a timer does).
  const alive = setInterval(() => undefined, 1000);
  const reader = res.body!.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    if (text.split(": keep-alive\n\n").length - 1 === 3) release();
  }
  clearInterval(alive);
  assert.match(text, /^(: keep-alive\n\n){3,}data: \{"type":"done"\}\n\n$/);
});

test("after the client cancels, the producer runs to its end and its sends are dropped without throwing", async () => {
  let finished = false;
  let openAfterCancel: boolean | undefined;
  const res = eventStream(async (sink) => {
    await sleep(50);
    openAfterCancel = sink.open;
    sink.send({ type: "late" });
    finished = true;
  });
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert.equal(new TextDecoder().decode(first.value), ": keep-alive\n\n");
  await reader.cancel();
  await sleep(100);
  assert.equal(finished, true);
  assert.equal(openAfterCancel, false);
});

test("a producer that throws still ends the stream (no hang)", async () => {
  const res = eventStream(async (sink) => {
    sink.send({ type: "first" });
    throw new Error("boom");
  });
  assert.equal(await readAll(res), ': keep-alive\n\ndata: {"type":"first"}\n\n');
});
