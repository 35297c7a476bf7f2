import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { GET as listTranscriptions } from "@/app/api/v1/transcriptions/route.ts";
import { PATCH as editTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import { RANKED_MATCHES, searchedWords, snippet } from "@/lib/transcription/transcripts/search-transcriptions.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestNote, createTestUser, type TestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";

// Issue 24: find any note. Full-text search on both databases: websearch syntax, ranking,
// highlighted snippets, edits and clean-ups searchable, another user's notes never found.

const database = setUpTestDatabase();
let alice: TestUser;
let bob: TestUser;
before(async () => {
  await database.ready;
  alice = await createTestUser();
  bob = await createTestUser();
});

const note = (user: TestUser, text: string, clean?: string) => createTestNote(user, text, clean ?? null);

const search = (user: TestUser, q: string, extra = "") =>
  call(listTranscriptions, { path: `/api/v1/transcriptions?q=${encodeURIComponent(q)}${extra}`, key: user.key });
const ids = (res: { body: { transcriptions: { id: string }[] } }) => res.body.transcriptions.map((t) => t.id);

describe("GET /api/v1/transcriptions?q= (issue 24)", () => {
  test("the note with the word more often ranks first; the snippet marks the words found", async () => {
    const once = await note(alice, "We talked about the budget and then lunch.");
    const thrice = await note(alice, "Budget review: the budget is tight, so the budget for travel goes.");
    await note(alice, "Nothing to see here, only gardening.");
    const res = await search(alice, "budget");
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(ids(res), [thrice.id, once.id]);
    const [best] = res.body.transcriptions;
    assert.ok(best.search.rank > res.body.transcriptions[1].search.rank);
    const marked = best.search.snippet.filter((p: { match: boolean }) => p.match).map((p: { text: string }) => p.text.toLowerCase());
    assert.ok(marked.length >= 1 && marked.every((w: string) => w === "budget"), JSON.stringify(best.search.snippet));
    assert.equal(best.search.snippet.map((p: { text: string }) => p.text).join("").includes("Budget review"), true);
    assert.equal(best.segments, undefined);
  });

  test("web search syntax: a quoted phrase, -excluded, or", async () => {
    const user = await createTestUser();
    const red = await note(user, "the red car was parked outside");
    const redBlue = await note(user, "a car that is red and a blue car");
    const blue = await note(user, "the blue boat");
    assert.deepEqual(new Set(ids(await search(user, '"red car"'))), new Set([red.id]));
    assert.deepEqual(new Set(ids(await search(user, "car -blue"))), new Set([red.id]));
    assert.deepEqual(new Set(ids(await search(user, "boat or parked"))), new Set([red.id, blue.id]));
    assert.deepEqual(new Set(ids(await search(user, "car red"))), new Set([red.id, redBlue.id]));
    assert.deepEqual(ids(await search(user, "submarine")), []);
  });

  test("any language, case aside; the clean-up's text is found unless the note was edited; edits and titles are found", async () => {
    const user = await createTestUser();
    const german = await note(user, "Wir treffen uns Straße am Montag", undefined);
    assert.deepEqual(ids(await search(user, "montag")), [german.id]);
    const japanese = await note(user, "明日 会議 です");
    assert.deepEqual(ids(await search(user, "会議")), [japanese.id]);

    const cleaned = await note(user, "um so the kubernetes thing", "So, the Kubernetes migration.");
    assert.deepEqual(ids(await search(user, "migration")), [cleaned.id], "found by its clean-up");
    const at = { path: `/api/v1/transcriptions/${cleaned.id}`, params: { id: cleaned.id }, key: user.key, method: "PATCH" };
    assert.equal((await call(editTranscription, { ...at, json: { text: "The cluster moves on Friday." } })).status, 200);
    assert.deepEqual(ids(await search(user, "friday")), [cleaned.id], "found by the edit");
    assert.deepEqual(ids(await search(user, "migration")), [], "an edited note is its edit");
    assert.equal((await call(editTranscription, { ...at, json: { title: "Infra plans" } })).status, 200);
    assert.deepEqual(ids(await search(user, "infra")), [cleaned.id], "found by its title");
  });

  test("another user's notes never match; pages follow the ranking", async () => {
    const user = await createTestUser();
    for (let i = 0; i < 5; i++) await note(user, `invoice number ${i} ${"invoice ".repeat(i)}`);
    await note(bob, "invoice from bob");
    const first = await search(user, "invoice", "&limit=2");
    assert.equal(first.body.transcriptions.length, 2);
    assert.ok(first.body.next_cursor);
    const second = await search(user, "invoice", `&limit=2&cursor=${first.body.next_cursor}`);
    const third = await search(user, "invoice", `&limit=2&cursor=${second.body.next_cursor}`);
    const all = [...ids(first), ...ids(second), ...ids(third)];
    assert.equal(all.length, 5);
    assert.equal(new Set(all).size, 5);
    assert.equal(third.body.next_cursor, null);
    const ranks = [first, second, third].flatMap((r) => r.body.transcriptions.map((t: { search: { rank: number } }) => t.search.rank));
    assert.deepEqual(ranks, [...ranks].sort((a, b) => b - a));
    assert.equal(ids(await search(bob, "invoice")).length, 1);
  });

  test(`past the ${RANKED_MATCHES} newest matches, older ones follow newest first: every match is on some page, once`, async () => {
    const user = await createTestUser();
    const prisma = await db();
    await prisma.transcription.createMany({
      data: Array.from({ length: RANKED_MATCHES + 15 }, (_, i) => ({
        userId: user.id, text: `weekly sync ${"sync ".repeat(i % 3)}number ${i}`, rawText: "x", language: "en", durationSec: 1,
        engine: "test", audioSha256: "0", requestHash: `h${i}`,
      })),
    });
    const seen: { id: string; rank: number }[] = [];
    let cursor: string | null = null;
    do {
      const res = await search(user, "sync", `&limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(res.status, 200, res.text);
      seen.push(...res.body.transcriptions.map((t: { id: string; search: { rank: number } }) => ({ id: t.id, rank: t.search.rank })));
      cursor = res.body.next_cursor;
    } while (cursor);
    assert.equal(seen.length, RANKED_MATCHES + 15);
    assert.equal(new Set(seen.map((s) => s.id)).size, RANKED_MATCHES + 15);
    assert.ok(seen.slice(0, RANKED_MATCHES).every((s) => s.rank > 0));
    assert.ok(seen.slice(RANKED_MATCHES).every((s) => s.rank === 0), "the older matches come after, unranked");
  });

  test("too long a query, or a list cursor used for a search, is 400; an empty q is the plain list", async () => {
    const res = await search(alice, "x".repeat(201));
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, "validation_failed");
    const list = await call(listTranscriptions, { path: "/api/v1/transcriptions?limit=1", key: alice.key });
    assert.equal((await search(alice, "budget", `&cursor=${list.body.next_cursor}`)).status, 400);
    const plain = await search(alice, "  ");
    assert.equal(plain.status, 200);
    assert.equal(plain.body.transcriptions[0].search, undefined);
  });

  test("snippets: about 30 words around the first word found, every searched word flagged, no markup", () => {
    assert.deepEqual([...searchedWords('budget "Travel plans" -draft or Straße')], ["budget", "travel", "plans", "straße"]);
    const text = `${"one ".repeat(20)}the <b>budget</b> and the travel plans ${"two ".repeat(40)}end`;
    const parts = snippet(text, searchedWords("budget travel"));
    assert.equal(parts[0].text.startsWith("… "), true, "cut before");
    assert.equal(parts.at(-1)!.text.endsWith(" …"), true, "and after");
    assert.deepEqual(parts.filter((p) => p.match).map((p) => p.text), ["budget", "travel"]);
    assert.ok(parts.some((p) => p.text.includes("<b>")), "markup in a note is text, never parsed");
    assert.deepEqual(snippet("Short note.", new Set(["absent"])), [{ text: "Short note.", match: false }]);
  });
});
