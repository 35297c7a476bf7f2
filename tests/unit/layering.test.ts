import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ROOT } from "@/tests/support/processes.ts";

// The shape docs/architecture.md promises, checked on the code: no import circles among lib/'s
// files or its folders, nor among the browser app's rooms; no crowded folder in lib/ or app/; and
// lib/ never reaching into the app, the browser workers or the tests.

const LIB = path.join(ROOT, "lib");
const APP = path.join(ROOT, "app");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === "generated" ? [] : sources(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** Each lib file's imports of this repository (the `@/` alias), as paths relative to the root. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(LIB)) {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*"@\/([^"]+)"/g)].map((m) => m[1]);
    graph.set(path.relative(ROOT, file), targets);
  }
  return graph;
}

/**
 * The browser app's rooms (app/_components/note, app/_lib/recording, …) and what each imports of
 * the others, relative imports included.
 */
function appRoomGraph(): Map<string, Set<string>> {
  const roomOf = (file: string) => {
    const parts = file.split("/");
    return parts[0] === "app" && /^_(components|lib)$/.test(parts[1]) && parts.length >= 4 ? parts.slice(0, 3).join("/") : null;
  };
  const graph = new Map<string, Set<string>>();
  for (const file of [...sources(path.join(APP, "_components")), ...sources(path.join(APP, "_lib"))]) {
    const from = roomOf(path.relative(ROOT, file));
    if (!from) continue;
    const text = readFileSync(file, "utf8");
    for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*"((?:@\/|\.)[^"]+)"/g)) {
      const target = spec.startsWith("@/") ? spec.slice(2) : path.relative(ROOT, path.resolve(path.dirname(file), spec));
      const to = roomOf(target);
      if (to && to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Strongly connected groups of more than one node (Tarjan): the import circles. */
function circles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do group.push((member = stack.pop()!));
      while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

// A table's store (lib/notes/store, lib/posts/store, …) is a folder of its own here: it sits below
// every domain that asks it (tags, insights, note-audio… which lib/notes' use cases call in turn)
// and imports only lib/db, lib/http and other stores (checked below), so its domain over it is no circle.
const STORE = /^lib\/([^/]+)\/store\//;
const folderOf = (file: string) => (STORE.test(file) ? `${file.split("/")[1]}/store` : file.split("/")[1]);

test("no import circles among lib/'s files", () => {
  const graph = new Map([...importGraph()].map(([file, targets]) => [file, new Set(targets.filter((t) => t.startsWith("lib/")))]));
  assert.deepEqual(circles(graph), []);
});

test("no import circles among lib/'s folders", () => {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of importGraph()) {
    const from = folderOf(file);
    for (const target of targets.filter((t) => t.startsWith("lib/"))) {
      if (folderOf(target) !== from) graph.set(from, (graph.get(from) ?? new Set()).add(folderOf(target)));
    }
  }
  assert.deepEqual(circles(graph), []);
});

// A domain split into rooms (lib/transcription: audio, recognizers, recognition, transcripts,
// upload) keeps its rooms in one order too: no two rooms import each other, directly or round about.
test("no import circles among the rooms of a domain", () => {
  const roomOf = (file: string) => file.split("/").slice(0, 3).join("/");
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of importGraph()) {
    if (file.split("/").length < 4) continue; // a domain's own files (its schemas) are not a room
    const from = roomOf(file);
    for (const target of targets.filter((t) => t.startsWith(`${from.split("/").slice(0, 2).join("/")}/`) && t.split("/").length >= 4)) {
      if (roomOf(target) !== from) graph.set(from, (graph.get(from) ?? new Set()).add(roomOf(target)));
    }
  }
  assert.deepEqual(circles(graph), []);
});

test("no folder of lib/ or app/ holds more than 15 files without rooms", () => {
  const crowded = [...new Set([...sources(LIB), ...sources(APP)].map((f) => path.dirname(f)))]
    .map((dir) => ({ dir: path.relative(ROOT, dir), files: readdirSync(dir).filter((n) => /\.tsx?$/.test(n)).length }))
    .filter(({ files }) => files > 15);
  assert.deepEqual(crowded, []);
});

test("the browser app's rooms import each other in one order, with no circles", () => {
  const graph = appRoomGraph();
  assert.ok(graph.size >= 5, `rooms found: ${[...graph.keys()].join(", ")}`);
  assert.deepEqual(circles(graph), []);
});

// Recognition ends in text, segments and words: what a note does after (clean-up, insights, tags,
// webhooks, keeping its audio, posts following its text) is lib/notes/note-recognized.ts.
test("lib/transcription imports none of the note's life after recognition", () => {
  const after = /^lib\/(insights|tags|webhooks|clean-up|posts|note-audio)\//;
  const reached = [...importGraph()]
    .filter(([file]) => file.startsWith("lib/transcription/"))
    .flatMap(([file, targets]) => targets.filter((t) => after.test(t)).map((t) => `${file} → ${t}`));
  assert.deepEqual(reached, []);
});

test("lib/ never imports the app, the browser workers or the tests", () => {
  const outward = [...importGraph()].flatMap(([file, targets]) => targets.filter((t) => /^(app|workers|tests|scripts)\//.test(t)).map((t) => `${file} → ${t}`));
  assert.deepEqual(outward, []);
});

test("the browser app's components and logic never import a route folder (actions come in as props)", () => {
  const upward = [...sources(path.join(APP, "_components")), ...sources(path.join(APP, "_lib")), ...sources(path.join(APP, "_ui"))].flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return [...text.matchAll(/(?:from|import)\s*\(?\s*"@\/app\/([^"_][^"]*)"/g)].map((m) => `${path.relative(ROOT, file)} → app/${m[1]}`);
  });
  assert.deepEqual(upward, []);
});

test("the circle finder finds a circle (the check can fail)", () => {
  const graph = new Map([["a", new Set(["b"])], ["b", new Set(["c"])], ["c", new Set(["a"])], ["d", new Set(["a"])]]);
  assert.deepEqual(circles(graph), [["a", "b", "c"]]);
});

test("a table's store imports nothing of lib/ but the database, the HTTP errors and the stores", () => {
  const reached = [...importGraph()]
    .filter(([file]) => STORE.test(file))
    .flatMap(([file, targets]) => targets.filter((t) => t.startsWith("lib/") && !STORE.test(t) && !/^lib\/db\/|^lib\/http\/errors\.ts$/.test(t)).map((t) => `${file} → ${t}`));
  assert.deepEqual(reached, []);
});

// One owner per table: each of these tables is read and written by its domain alone, and there by
// its store alone; the domain's use cases, another domain, a route or the browser app ask the store.
// A Prisma query on the model (`.note.findFirst(` …) or SQL naming the table counts. (`.note.` alone
// would be any note object: the pattern names the model's query methods.) Migrations live in
// prisma/migrations; account deletion counts the notes through the store and deletes them by the
// cascade from the user.
type Owner = { store: string; models: string[]; tables: string[]; exceptions: Map<string, string> };
const OWNERS: Owner[] = [
  { store: "lib/notes/store/", models: ["note"], tables: ["transcriptions"], exceptions: new Map() },
  { store: "lib/posts/store/", models: ["post"], tables: ["content_items"], exceptions: new Map() },
  { store: "lib/dictionary/store/", models: ["dictionaryEntry"], tables: ["dictionary_entries"], exceptions: new Map() },
  {
    store: "lib/clean-up/store/",
    models: ["cleanUpWorkflow", "cleanUpChunk"],
    tables: ["optimization_workflows", "optimization_chunks"],
    // A note's list and search show its clean-up's text: one SQL joins the note to it (reads only).
    exceptions: new Map([
      ["lib/notes/store/note-pages.ts", "the note list's SQL joins each note's clean-up"],
      ["lib/notes/store/note-matches.ts", "the note search's SQL joins each note's clean-up"],
    ]),
  },
];
const QUERY_METHODS = "find(?:Unique|First)(?:OrThrow)?|findMany|create(?:Many)?(?:AndReturn)?|update(?:Many)?(?:AndReturn)?|upsert|delete(?:Many)?|count|aggregate|groupBy";

function namesTable(owner: Owner, text: string): boolean {
  const patterns = [
    new RegExp(`\\.(?:${owner.models.join("|")})\\.(?:${QUERY_METHODS})\\(`),
    new RegExp(`\\b(?:FROM|JOIN|UPDATE|INTO|TABLE|ANALYZE)\\s+"?(?:${owner.tables.join("|")})\\b`, "i"),
  ];
  const code = text.replace(/\/\/.*$/gm, "");
  return patterns.some((pattern) => pattern.test(code));
}
const ownerOf = (store: string) => OWNERS.find((owner) => owner.store === store)!;
const namesNoteTable = (text: string) => namesTable(ownerOf("lib/notes/store/"), text);

for (const owner of OWNERS) {
  test(`outside ${owner.store} no file of lib/ or app/ queries ${owner.tables.join(" or ")}`, () => {
    const outside = [...sources(LIB), ...sources(APP)]
      .map((file) => path.relative(ROOT, file))
      .filter((file) => !file.startsWith(owner.store) && !owner.exceptions.has(file))
      .filter((file) => namesTable(owner, readFileSync(path.join(ROOT, file), "utf8")));
    assert.deepEqual(outside, []);
  });
}

test("the note-table check finds a query and SQL on the table, and not its wire names", () => {
  assert.ok(namesNoteTable("await prisma.note.findFirst({ where })"));
  assert.ok(namesNoteTable("await (await db()).note.count({ where })"));
  assert.ok(namesNoteTable("tx.$executeRaw`UPDATE transcriptions SET tags = ${tags}`"));
  assert.ok(namesNoteTable("SELECT 1 FROM \"transcriptions\" WHERE id = ${id}"));
  assert.ok(namesNoteTable("SELECT t.id FROM optimization_workflows o JOIN transcriptions t ON t.optimization_id = o.id"));
  assert.ok(!namesNoteTable('client.GET("/api/v1/transcriptions/{id}", note(id))'));
  assert.ok(!namesNoteTable('type Match = TranscriptionList["transcriptions"][number];'));
  assert.ok(!namesNoteTable("await prisma.noteClaim.deleteMany({ where })"));
  assert.ok(!namesNoteTable("// quoted prisma.note.findFirst() once"));
  assert.ok(namesNoteTable("await tx.note.updateMany({ where, data })"));
  assert.ok(namesNoteTable("prisma.note.findUniqueOrThrow({ where: { id } })"));
  assert.ok(!namesNoteTable("const title = props.note.title.trim();"));
  assert.ok(!namesNoteTable("setNote(outcome.note.text)"));
});

test("the checks of the posts', dictionary's and clean-up's tables find their queries, and not their wire names", () => {
  const posts = ownerOf("lib/posts/store/");
  const dictionary = ownerOf("lib/dictionary/store/");
  const cleanUp = ownerOf("lib/clean-up/store/");
  assert.ok(namesTable(posts, "await tx.post.deleteMany({ where: { userId } })"));
  assert.ok(namesTable(posts, "await (await db()).post.findFirst({ where })"));
  assert.ok(namesTable(posts, 'tx.$queryRaw`SELECT "version" FROM "content_items" WHERE "id" = ${id} FOR UPDATE`'));
  assert.ok(!namesTable(posts, 'client.POST("/api/v1/content/items", { body })'));
  assert.ok(!namesTable(posts, "const title = props.post.title.trim();"));
  assert.ok(!namesTable(posts, "await prisma.postDraft.count({ where })"));
  assert.ok(namesTable(dictionary, "prisma.dictionaryEntry.findMany({ where: { userId } })"));
  assert.ok(namesTable(dictionary, "INSERT INTO dictionary_entries (id) VALUES (${id})"));
  assert.ok(!namesTable(dictionary, "entries.map((entry) => entry.dictionaryEntry.misspelling)"));
  assert.ok(namesTable(cleanUp, "await tx.cleanUpWorkflow.deleteMany({ where: { id, userId } })"));
  assert.ok(namesTable(cleanUp, "await prisma.cleanUpChunk.findMany({ where: { workflowId } })"));
  assert.ok(namesTable(cleanUp, "FROM transcriptions t LEFT JOIN optimization_workflows o ON o.id = t.optimization_id"));
  assert.ok(!namesTable(cleanUp, 'client.GET("/api/v1/optimizations/{id}")'));
});
