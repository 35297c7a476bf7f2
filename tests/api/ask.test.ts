import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { before, describe, test } from "node:test";
import { POST as askRoute } from "@/app/api/v1/ask/route.ts";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { PATCH as editTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import type { Segment } from "@/lib/segment.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { JFK_WAV } from "../support/audio.ts";
import { createTimedNote, createTestNote, createTestUser, type TestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";
import { sseFrames } from "../support/sse.ts";
import { withEnv } from "../support/env.ts";
import { ordinaryWords } from "../support/ordinary-words.ts";
import { standInWriter } from "../support/stand-in-writer.ts";
import type { ChatReply, ChatRequest } from "../support/chat-server.ts";

// Issue 46 item 2: POST /api/v1/ask answers from the person's own sentences with citations that
// point at the right note and the moment it was said; offline, with the stand-in writer, streamed.

const database = setUpTestDatabase();
before(() => database.ready);

let reply: (req: ChatRequest, n: number) => ChatReply | Promise<ChatReply> = () => ({ content: "" });
const { chat, env: writerEnv } = await standInWriter((req, n) => reply(req, n));

type Citation = { n: number; note_id: string; note_title: string; quote: string; start: number | null; end: number | null };

const ask = (user: TestUser, json: unknown) => call(askRoute, { method: "POST", path: "/api/v1/ask", key: user.key, json });

/** Alice's pricing call and her garden note, and Bob's pricing note (never to be cited for Alice). */
async function pricingNotes() {
  const alice = await createTestUser();
  const bob = await createTestUser();
  const pricing = await createTimedNote(
    alice,
    [
      ["Good morning, this is the weekly product call.", 0, 3.2],
      ["We agreed the pricing should go up to twelve dollars a month.", 3.5, 8.1],
      ["Marketing wants a launch in March.", 8.4, 10.9],
      ["The old prices stay for existing customers until June.", 11.2, 15.6],
    ],
    { title: "Product call", tags: ["work"], recordedAt: new Date("2026-11-10T09:00:00Z") },
  );
  const garden = await createTimedNote(alice, [["The tomatoes need water every evening.", 0, 4]], { title: "Garden", recordedAt: new Date("2026-10-01T18:00:00Z") });
  const bobs = await createTimedNote(bob, [["Our pricing is secret: forty dollars.", 0, 3]], { title: "Bob's pricing" });
  return { alice, bob, pricing, garden, bobs };
}

describe("POST /api/v1/ask, offline (issue 46 item 2)", () => {
  test("cites the sentences about the question with their times; another user's notes are never cited", async () => {
    const { alice, pricing, bobs } = await pricingNotes();
    const res = await ask(alice, { question: "What did I say about the pricing?" });
    assert.equal(res.status, 200, res.text);
    const body = res.body as { answer: string; answered_by: string; offline_reason: string; found: boolean; citations: Citation[]; notes: { note_id: string; citations: number[] }[] };
    assert.equal(body.answered_by, "offline");
    assert.match(body.offline_reason, /no writer/);
    assert.equal(body.found, true);
    assert.match(body.answer, /^Here is what you said about “pricing”:/);
    // "pricing" and its stem's other form ("prices"), both in the product call, in the order spoken.
    assert.deepEqual(body.citations.map((c) => [c.note_id, c.quote, c.start, c.end]), [
      [pricing.id, "We agreed the pricing should go up to twelve dollars a month.", 3.5, 8.1],
      [pricing.id, "The old prices stay for existing customers until June.", 11.2, 15.6],
    ]);
    assert.deepEqual(body.citations.map((c) => c.n), [1, 2]);
    assert.equal(body.citations[0].note_title, "Product call");
    assert.deepEqual(body.notes, [{ note_id: pricing.id, note_title: "Product call", citations: [1, 2] }]);
    assert.match(body.answer, /Product call\n• “We agreed the pricing should go up to twelve dollars a month\.” \[1\]/);
    assert.ok(!res.text.includes(bobs.id) && !res.text.includes("forty"), "Bob's note is not Alice's");
  });

  test("nothing found is an answer that says so, not an error", async () => {
    const { alice } = await pricingNotes();
    const res = await ask(alice, { question: "What about the submarine?" });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.found, false);
    assert.equal(res.body.answer, "I found nothing in your notes about “submarine”.");
    assert.deepEqual(res.body.citations, []);
    const none = await createTestUser();
    const empty = await ask(none, { question: "pricing?" });
    assert.equal(empty.status, 200, empty.text);
    assert.equal(empty.body.found, false);
  });

  test("tag, since and until keep only those notes", async () => {
    const { alice, pricing } = await pricingNotes();
    const other = await createTimedNote(alice, [["New pricing for the bakery: bread at four euros.", 0, 3]], { title: "Bakery", recordedAt: new Date("2026-09-01T08:00:00Z") });
    const noteIds = async (json: object) => {
      const res = await ask(alice, { question: "pricing", ...json });
      assert.equal(res.status, 200, res.text);
      return [...new Set((res.body.citations as Citation[]).map((c) => c.note_id))].sort();
    };
    assert.deepEqual(await noteIds({}), [pricing.id, other.id].sort());
    assert.deepEqual(await noteIds({ tag: "WORK" }), [pricing.id], "a tag, case aside");
    assert.deepEqual(await noteIds({ tag: "nope" }), []);
    assert.deepEqual(await noteIds({ since: "2026-10-01" }), [pricing.id]);
    assert.deepEqual(await noteIds({ until: "2026-09-01" }), [other.id], "until a day includes that day");
    assert.deepEqual(await noteIds({ since: "2026-09-01T09:00:00Z", until: "2026-11-10T08:00:00+00:00" }), []);
  });

  test("a German question finds the German note, by its stems", async () => {
    const user = await createTestUser();
    const german = await createTimedNote(user, [["Heute war schönes Wetter.", 0, 2], ["Die Preise für das Abo erhöhen wir im Januar.", 2.5, 6]], { language: "de" });
    await createTimedNote(user, [["We went hiking on Sunday.", 0, 3]]);
    const res = await ask(user, { question: "Was habe ich über den Preis gesagt?" });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual((res.body.citations as Citation[]).map((c) => [c.note_id, c.quote, c.start]), [[german.id, "Die Preise für das Abo erhöhen wir im Januar.", 2.5]]);
  });

  test("a note without timed segments (typed) is quoted from its text, without times", async () => {
    const user = await createTestUser();
    const note = await createTestNote(user, "The budget is tight this quarter. Nothing else.");
    const res = await ask(user, { question: "budget" });
    assert.deepEqual((res.body.citations as Citation[]).map((c) => [c.note_id, c.quote, c.start, c.end]), [[note.id, "The budget is tight this quarter.", null, null]]);
  });

  const edit = (user: TestUser, id: string, text: string) =>
    call(editTranscription, { method: "PATCH", path: `/api/v1/transcriptions/${id}`, key: user.key, params: { id }, json: { text } });
  const citedIn = async (user: TestUser, id: string, question: string) => {
    const res = await ask(user, { question });
    assert.equal(res.status, 200, res.text);
    return (res.body.citations as Citation[]).filter((c) => c.note_id === id).map((c) => [c.quote, c.start, c.end]);
  };

  test("a timed note edited since keeps its moments: the edit's words are lined up with the recognized ones (issue 57)", async () => {
    const { alice, pricing } = await pricingNotes();
    const text = [
      "Good morning, this is the weekly product call.",
      "We agreed the Pricing should go up to $12 a month, decided on Monday.",
      "A sentence typed in later about pricing.",
      "Marketing wants a launch in March.",
      "The old prices stay for existing customers until June.",
    ].join(" ");
    const edited = await edit(alice, pricing.id, text);
    assert.equal(edited.status, 200, edited.text);
    assert.ok(edited.body.edited_at);
    assert.deepEqual(await citedIn(alice, pricing.id, "pricing"), [
      // Quoted as edited; from its first word said ("We", 3.5) to its last ("month", 8.1).
      ["We agreed the Pricing should go up to $12 a month, decided on Monday.", 3.5, 8.1],
      // Never said: the moment between the sentences around it.
      ["A sentence typed in later about pricing.", 8.1, 8.4],
      ["The old prices stay for existing customers until June.", 11.2, 15.6],
    ]);
  });

  test("a fix of a word, then Undo: the note is as recognized again and every sentence keeps its moment", async () => {
    const { alice, pricing } = await pricingNotes();
    const before = await citedIn(alice, pricing.id, "pricing");
    assert.equal((await edit(alice, pricing.id, pricing.text.replace("customers", "clients"))).status, 200);
    assert.deepEqual((await citedIn(alice, pricing.id, "pricing"))[1], ["The old prices stay for existing clients until June.", 11.2, 15.6], "the fixed sentence keeps its moment");
    assert.equal((await edit(alice, pricing.id, pricing.text)).status, 200);
    const row = await (await db()).note.findUniqueOrThrow({ where: { id: pricing.id } });
    assert.equal(row.editedAt, null, "Undo puts the note back as it was recognized (issue 69), not as an edit");
    assert.deepEqual(await citedIn(alice, pricing.id, "pricing"), before);
    assert.deepEqual(before, [
      ["We agreed the pricing should go up to twelve dollars a month.", 3.5, 8.1],
      ["The old prices stay for existing customers until June.", 11.2, 15.6],
    ]);
  });

  test("a cleaned-up note is quoted from its clean-up, timed by the recognized words", async () => {
    const user = await createTestUser();
    const note = await createTimedNote(user, [["um so the pricing goes up to twelve dollars", 1, 5], ["and uh the launch is in march", 5.5, 8]]);
    const prisma = await db();
    const optimization = await prisma.cleanUpWorkflow.create({
      data: {
        userId: user.id, requestHash: note.requestHash, name: "transcript-optimization", optimizer: "local", mode: "inline", status: "completed",
        callId: "call", chunksTotal: 1, chunksDone: 1, language: "en", optimizedText: "So the pricing goes up to $12. And the launch is in March.",
      },
    });
    await prisma.note.update({ where: { id: note.id }, data: { optimizationId: optimization.id } });
    assert.deepEqual(await citedIn(user, note.id, "pricing"), [["So the pricing goes up to $12.", 1.44, 4.11]]);
    assert.deepEqual(await citedIn(user, note.id, "launch"), [["And the launch is in March.", 5.5, 8]]);
  });

  test("an edit that no longer lines up with what was said is quoted without times", async () => {
    const user = await createTestUser();
    const note = await createTimedNote(user, [["The weather was lovely today.", 0, 3]]);
    assert.equal((await edit(user, note.id, "Budget: forty euros for paint.")).status, 200);
    assert.deepEqual(await citedIn(user, note.id, "budget"), [["Budget: forty euros for paint.", null, null]]);
  });

  test("bad input is 400 validation_failed naming the field", async () => {
    const user = await createTestUser();
    for (const [json, path] of [
      [{ question: "   " }, "question"],
      [{ question: "x".repeat(501) }, "question"],
      [{}, "question"],
      [{ question: "pricing", since: "last week" }, "since"],
      [{ question: "pricing", until: "2026-13-01" }, "until"],
      [{ question: "pricing", since: "2026-11-02", until: "2026-11-01" }, "until"],
      [{ question: "pricing", tag: "a/b" }, "tag"],
      [{ question: "pricing", extra: 1 }, ""],
    ] as const) {
      const res = await ask(user, json);
      assert.equal(res.status, 400, JSON.stringify(json));
      assert.equal(res.body.error.code, "validation_failed");
      if (path) assert.ok(res.body.error.details.some((d: { path: string }) => d.path === path), `${JSON.stringify(json)}: ${res.text}`);
    }
    const noScope = await createTestUser({ scopes: ["content:read"] });
    assert.equal((await ask(noScope, { question: "pricing" })).status, 403);
  });

  test("the recording of JFK: the citation's time falls inside the spoken sentence", async () => {
    const user = await createTestUser();
    const body = new FormData();
    body.set("audio", new Blob([new Uint8Array(await readFile(JFK_WAV))]), "jfk.wav");
    const made = await call(transcribe, { method: "POST", path: "/transcribe", key: user.key, body });
    assert.equal(made.status, 200, made.text);
    const res = await ask(user, { question: "What did I say about my country?" });
    assert.equal(res.status, 200, res.text);
    const [first] = res.body.citations as Citation[];
    assert.ok(first, res.text);
    assert.equal(first.note_id, made.body.id);
    assert.match(first.quote, /country/i);
    // The recognizer's own times of the word asked about lie within the cited span.
    const row = await (await db()).note.findUniqueOrThrow({ where: { id: made.body.id } });
    const words = (row.segments as Segment[]).flatMap((s) => s.words ?? []).filter((w) => /country/i.test(w.word));
    assert.ok(words.length, JSON.stringify(row.segments));
    assert.ok(words.some((w) => w.start >= first.start! && w.end <= first.end!), `${JSON.stringify(words)} within ${first.start}–${first.end}`);
    assert.ok(first.end! - first.start! < 15, "a sentence, not the whole recording");
  });
});

const WRITER_ANSWER = "You wanted to raise the price to twelve dollars a month [1], and to keep old prices until June [2][9].";

describe("POST /api/v1/ask, with the writer", () => {
  test(
    "answers only from the numbered passages; a number it was not given is dropped",
    withEnv(writerEnv(), async () => {
      reply = () => ({ content: WRITER_ANSWER });
      const { alice, pricing } = await pricingNotes();
      const res = await ask(alice, { question: "What did I say about the pricing?" });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.answered_by, "writer");
      assert.equal(res.body.offline_reason, null);
      assert.equal(res.body.answer, "You wanted to raise the price to twelve dollars a month [1], and to keep old prices until June [2].");
      assert.deepEqual((res.body.citations as Citation[]).map((c) => [c.n, c.note_id, c.start]), [[1, pricing.id, 3.5], [2, pricing.id, 11.2]]);
      const [sent] = chat.requests;
      assert.match(sent.system, /ONLY the numbered passages/);
      assert.match(sent.user, /^Passages:\n\[1\] \(Product call, at 0:03\) We agreed the pricing should go up to twelve dollars a month\.\n\[2\] \(Product call, at 0:11\) The old prices/);
      assert.match(sent.user, /Question: What did I say about the pricing\?$/);
      assert.ok(!sent.user.includes("forty"), "another user's note never reaches the writer");
    }),
  );

  test(
    "a writer that fails, or cites nothing, gives the offline answer and says why",
    withEnv(writerEnv({ WRITER_COOLDOWN_SECONDS: "0" }), async () => {
      const { alice } = await pricingNotes();
      reply = () => ({ status: 401 });
      const failed = await ask(alice, { question: "pricing" });
      assert.equal(failed.status, 200, failed.text);
      assert.equal(failed.body.answered_by, "offline");
      assert.match(failed.body.offline_reason, /^the writer failed: .*refused its key/);
      assert.match(failed.body.answer, /^Here is what you said about “pricing”:/);
      assert.equal(failed.body.citations.length, 2);

      reply = () => ({ content: "The pricing is twelve dollars [7]." });
      const uncited = await ask(alice, { question: "pricing" });
      assert.equal(uncited.body.answered_by, "offline");
      assert.equal(uncited.body.offline_reason, "the writer's answer cited none of your notes' passages");
      assert.equal(uncited.body.citations.length, 2);
    }),
  );

  // Issue 69: every model output passes one check (lib/writer/check-output.ts).
  test(
    "an answer of nonsense, or with a name the passages do not have, is replaced by the offline answer, which says why",
    withEnv(writerEnv(), async () => {
      const { alice } = await pricingNotes();
      reply = () => ({ content: `${ordinaryWords(200, 4)} [1].` });
      const nonsense = await ask(alice, { question: "pricing" });
      assert.equal(nonsense.status, 200, nonsense.text);
      assert.equal(nonsense.body.answered_by, "offline");
      assert.equal(nonsense.body.offline_reason, "the writer's answer was not in your notes' words");
      assert.match(nonsense.body.answer, /^Here is what you said about “pricing”:/);

      reply = () => ({ content: "The price goes up to twelve dollars a month, says Priyanka [1]." });
      const named = await ask(alice, { question: "pricing" });
      assert.equal(named.body.answered_by, "offline");
      assert.equal(named.body.offline_reason, "the writer's answer said “Priyanka”, which the note does not");
    }),
  );

  test(
    "streamed: the citations first, then the answer's text as it is written, then done",
    withEnv(writerEnv(), async () => {
      reply = () => ({ content: WRITER_ANSWER, chunkDelayMs: 2 });
      const { alice, pricing } = await pricingNotes();
      const req = new Request("http://localhost/api/v1/ask", {
        method: "POST",
        headers: { authorization: `Bearer ${alice.key}`, "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ question: "What did I say about the pricing?" }),
      });
      const res = await askRoute(req, { params: Promise.resolve({}) });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
      const events: { type: string; [k: string]: unknown }[] = [];
      for await (const frame of sseFrames(res.body!)) if (frame.data) events.push(JSON.parse(frame.data));
      const types = events.map((e) => e.type);
      assert.equal(types[0], "ask.citations");
      assert.equal(types.at(-1), "ask.done");
      assert.ok(types.filter((t) => t === "ask.answer.delta").length > 3, types.join(","));
      assert.deepEqual((events[0].citations as Citation[]).map((c) => c.note_id), [pricing.id, pricing.id]);
      const text = events.filter((e) => e.type === "ask.answer.delta").map((e) => e.delta).join("");
      assert.ok(!text.includes("[9]"), text);
      const done = events.at(-1)!;
      assert.equal(done.answered_by, "writer");
      assert.equal(text.replace(/\s+\./g, ".").trim(), done.answer);
    }),
  );

  test("streamed offline: the citations, the offline answer as one delta, then done", async () => {
    const { alice } = await pricingNotes();
    const req = new Request("http://localhost/api/v1/ask", {
      method: "POST",
      headers: { authorization: `Bearer ${alice.key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ question: "pricing" }),
    });
    const res = await askRoute(req, { params: Promise.resolve({}) });
    const events: { type: string; [k: string]: unknown }[] = [];
    for await (const frame of sseFrames(res.body!)) if (frame.data) events.push(JSON.parse(frame.data));
    assert.deepEqual(events.map((e) => e.type), ["ask.citations", "ask.answer.delta", "ask.done"]);
    assert.equal(events[1].delta, events[2].answer);
    assert.equal(events[2].answered_by, "offline");
  });
});
