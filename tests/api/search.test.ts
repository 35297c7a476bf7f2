import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { GET as listTranscriptions } from "@/app/api/v1/transcriptions/route.ts";
import { PATCH as editTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import { SEARCH_CONFIGURATIONS } from "@/lib/notes/store/search-query.ts";
import { searchedWords, snippet } from "@/lib/notes/search-notes.ts";
import { RANKED_MATCHES } from "@/lib/notes/store/note-pages.ts";
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

const note = (user: TestUser, text: string, clean?: string, language?: string) => createTestNote(user, text, clean ?? null, language);

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
    await prisma.note.createMany({
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
    assert.deepEqual(searchedWords('budget "Travel plans" -draft or Straße').map((t) => [t.word, t.prefix]), [
      ["budget", false], ["travel", false], ["plans", false], ["straße", true],
    ]);
    const text = `${"one ".repeat(20)}the <b>budget</b> and the travel plans ${"two ".repeat(40)}end`;
    const parts = snippet(text, searchedWords("budget travel"));
    assert.equal(parts[0].text.startsWith("… "), true, "cut before");
    assert.equal(parts.at(-1)!.text.endsWith(" …"), true, "and after");
    assert.deepEqual(parts.filter((p) => p.match).map((p) => p.text), ["budget", "travel"]);
    assert.ok(parts.some((p) => p.text.includes("<b>")), "markup in a note is text, never parsed");
    assert.deepEqual(snippet("Short note.", searchedWords("absent")), [{ text: "Short note.", match: false }]);
  });

  describe("in the note's language, as you type (issue 33)", () => {
    const firstMatch = (res: { body: { transcriptions: { search: { snippet: { text: string; match: boolean }[] } }[] } }) =>
      res.body.transcriptions[0].search.snippet.find((p) => p.match)?.text;

    test("the last word is a prefix: countr finds country and countries, not an unrelated note", async () => {
      const user = await createTestUser();
      const one = await note(user, "The whole country voted.");
      const many = await note(user, "Many countries signed.");
      await note(user, "A county fair.");
      assert.deepEqual(new Set(ids(await search(user, "countr"))), new Set([one.id, many.id]));
      assert.deepEqual(new Set(ids(await search(user, "whole countr"))), new Set([one.id]), "earlier words are whole words");
      assert.deepEqual(ids(await search(user, "countr whole")), [], "only the last word is a prefix");
      assert.deepEqual(new Set(ids(await search(user, "generatio"))), new Set(), "nothing yet");
      const generation = await note(user, "A new generation of tools.");
      assert.deepEqual(ids(await search(user, "generatio")), [generation.id], "a prefix of the word, not of its stem (generat)");
    });

    test("a word typed to the end (a space after it) or of 1–2 letters is a whole word, not a prefix", async () => {
      const user = await createTestUser();
      const one = await note(user, "The whole country voted.");
      const many = await note(user, "Many countries signed.");
      const cow = await note(user, "A cow in the field.");
      await note(user, "The cows came home.");
      assert.deepEqual(ids(await search(user, "countr ")), [], "finished: countr is no word");
      assert.deepEqual(new Set(ids(await search(user, "countries  "))), new Set([one.id, many.id]), "its other forms still");
      assert.deepEqual(ids(await search(user, "co")), [], "two letters: a whole word");
      assert.equal(ids(await search(user, "cow")).length, 2, "three: a prefix (cow, cows)");
      assert.equal(ids(await search(user, "cow ")).length, 2, "finished: cow and its plural, stemmed");
      assert.deepEqual(ids(await search(user, "field cow ")), [cow.id]);
    });

    test("only the person's own notes' languages are read: another person's German notes change nothing", async () => {
      const english = await createTestUser();
      const german = await createTestUser();
      await note(german, "Der run auf die Karten.", undefined, "de");
      const mine = await note(english, "I went for a run.", undefined, "en");
      assert.deepEqual(ids(await search(english, "running")), [mine.id]);
      assert.deepEqual(ids(await search(german, "running")), [], "English stems are not read for German notes");
      assert.equal((await search(await createTestUser(), "running")).body.transcriptions.length, 0, "no notes: nothing found");
    });

    test("stemmed in the note's language: English, German, Spanish, French", async () => {
      const user = await createTestUser();
      const english = await note(user, "We visited one country after another.", undefined, "en");
      const german = await note(user, "Die Häuser am Fluss sind alt.", undefined, "de");
      const spanish = await note(user, "Escribimos dos canciones nuevas.", undefined, "es");
      const french = await note(user, "Les chevaux sont dans le pré.", undefined, "fr");
      assert.deepEqual(ids(await search(user, "countries")), [english.id]);
      assert.deepEqual(ids(await search(user, "Haus")), [german.id]);
      assert.deepEqual(ids(await search(user, "canción")), [spanish.id]);
      assert.deepEqual(ids(await search(user, "cheval")), [french.id]);
      // What the snowball stemmers do not conflate stays apart ("ging" is not a form of "gehen" to it).
      const gone = await note(user, "Er ging nach Hause.", undefined, "de");
      assert.deepEqual(ids(await search(user, "gehen")), []);
      assert.deepEqual(ids(await search(user, "ging")), [gone.id]);
    });

    test("a word stemmed in one language does not find a note in another; an unknown language is found by its words", async () => {
      const user = await createTestUser();
      // English stems "running" to "run"; a German note with "run" is not found by it.
      const german = await note(user, "Der run auf die Karten.", undefined, "de");
      const english = await note(user, "I went for a run.", undefined, "en");
      assert.deepEqual(ids(await search(user, "running")), [english.id]);
      assert.deepEqual(new Set(ids(await search(user, "run"))), new Set([german.id, english.id]));
      const unknown = await note(user, "Mkutano wa nchi nyingi kesho", undefined, "sw");
      assert.deepEqual(ids(await search(user, "nchi")), [unknown.id]);
      assert.deepEqual(ids(await search(user, "nyin")), [unknown.id], "by prefix too");
      assert.deepEqual(ids(await search(user, "nchis")), []);
    });

    test("the clean-up's words are stemmed in the note's language too", async () => {
      const user = await createTestUser();
      const cleaned = await note(user, "äh die", "Die Häuser stehen leer.", "de");
      assert.deepEqual(ids(await search(user, "haus")), [cleaned.id]);
    });

    test("the snippet is cut around the first stemmed or prefix match, not the start of the note", async () => {
      const user = await createTestUser();
      const text = `${"Filler words about nothing in particular here. ".repeat(6)}Then several countries agreed, and each country signed.`;
      await note(user, text);
      const stemmed = await search(user, "country");
      assert.equal(firstMatch(stemmed), "countries");
      const parts = stemmed.body.transcriptions[0].search.snippet;
      assert.ok(parts[0].text.startsWith("… "), JSON.stringify(parts));
      assert.deepEqual(parts.filter((p: { match: boolean }) => p.match).map((p: { text: string }) => p.text), ["countries", "country"]);
      assert.equal(firstMatch(await search(user, "agre")), "agreed");
      const german = await note(user, `${"Wir reden über dies und das. ".repeat(8)}Die Häuser sind alt.`, undefined, "de");
      const res = await search(user, "haus");
      assert.deepEqual(ids(res), [german.id]);
      assert.equal(firstMatch(res), "Häuser");
    });

    test("web search syntax still holds with stems and prefixes: a quoted phrase, -exclusion, or", async () => {
      const user = await createTestUser();
      const red = await note(user, "the red cars were parked outside");
      const both = await note(user, "a car that is red and a blue car");
      assert.deepEqual(ids(await search(user, '"red car"')), [red.id], "a phrase, stemmed");
      assert.deepEqual(ids(await search(user, "car -blue")), [red.id]);
      assert.deepEqual(ids(await search(user, "-blue car")), [red.id]);
      assert.deepEqual(new Set(ids(await search(user, "parked or blu"))), new Set([red.id, both.id]));
      assert.deepEqual(ids(await search(user, '"car red"')), []);
    });

    test("tsquery operators typed as text are words or nothing, never a 5xx", async () => {
      const user = await createTestUser();
      const target = await note(user, "alpha beta gamma");
      for (const q of ["&", "|", "!", ":*", "()", "alpha & beta", "alpha | !beta", "al:*", "(alpha", "alpha)", "'alpha'", "\\alpha",
        "alpha <-> beta", "alpha <2> gamma", '"', '"-"', "-", "- -", "or", "a:b:c", "alpha:*A", "alpha:B", "!!!alpha", "&&", "'' or ''"]) {
        const res = await search(user, q);
        assert.equal(res.status, 200, `${q}: ${res.text}`);
      }
      assert.deepEqual(ids(await search(user, "alpha & beta")), [target.id], "the words are found");
      assert.deepEqual(ids(await search(user, "(alph")), [target.id]);
      assert.deepEqual(ids(await search(user, "&|!")), []);
      assert.equal((await search(user, "alpha\u0000")).status, 400, "NUL is bad input, as before");
    });

    test("every language's stored vector is stemmed in its configuration and also holds the words as they are", async () => {
      const user = await createTestUser();
      const prisma = await db();
      const languages = [...Object.keys(SEARCH_CONFIGURATIONS), "sw"];
      await prisma.note.createMany({
        data: languages.map((language, i) => ({
          userId: user.id, text: "Countries and houses", rawText: "x", language, durationSec: 1, engine: "test", audioSha256: "0", requestHash: `v${i}`,
        })),
      });
      const rows = await prisma.$queryRaw<{ language: string; stored: string }[]>`
        SELECT language, search::text AS stored FROM transcriptions WHERE user_id = ${user.id}`;
      for (const row of rows) {
        const configuration = SEARCH_CONFIGURATIONS[row.language];
        const [{ expected }] = configuration
          ? await prisma.$queryRaw<{ expected: string }[]>`
              SELECT (to_tsvector(${configuration}::regconfig, 'Countries and houses') || to_tsvector('simple', 'Countries and houses'))::text AS expected`
          : await prisma.$queryRaw<{ expected: string }[]>`SELECT to_tsvector('simple', 'Countries and houses')::text AS expected`;
        assert.equal(row.stored, expected, row.language);
      }
      assert.equal(rows.length, languages.length);
    });
  });
});
