import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { strFromU8, unzipSync } from "fflate";
import { GET as exportRoute } from "@/app/api/v1/export/route.ts";
import { POST as addEntry } from "@/app/api/v1/dictionary/add/route.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { csvRow, slug } from "@/lib/export/export-files.ts";
import { setUpContentTests } from "@/tests/api/content-support.ts";
import { FAKE_WEBM, noteOf, postsOf } from "@/tests/api/user-data-support.ts";
import { createTestUser, type TestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";

// Issue 24 item 5: GET /api/v1/export streams everything of one user as a ZIP.

setUpContentTests({ workers: false });

async function download(headers: Record<string, string>) {
  const res = await exportRoute(new Request("http://localhost/api/v1/export", { headers }), { params: Promise.resolve({}) });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes };
}
const asUser = (user: TestUser) => download({ authorization: `Bearer ${user.key}` });

const addWord = (user: TestUser, misspelling: string, correct_spelling: string) =>
  call(addEntry, { method: "POST", path: "/api/v1/dictionary/add", key: user.key, json: { misspelling, correct_spelling } });

/** What `unzip` (Info-ZIP, not our library) says of the archive: it tests every entry's CRC. */
function unzipTool(bytes: Buffer, dir: string, args: string[]): string {
  return execFileSync("unzip", [...args, path.join(dir, "export.zip")], { encoding: "utf8" });
}

describe("GET /api/v1/export", () => {
  test("notes with front matter and audio, the dictionary as CSV, posts; nobody else's data", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const recorded = new Date("2026-11-20T09:15:00Z");
    const spoken = await noteOf(user, { title: "Standup: Kubernetes plan", audio: "file", rawText: "standup cooper netties plan" });
    const cleaned = await noteOf(user, {
      rawText: "so we moved the cluster. then it worked",
      optimizedText: "So we moved the cluster. Then it worked.",
      recordedAt: recorded,
    });
    assert.equal((await addWord(user, 'k eight s, "the" thing', "Kubernetes")).status, 201);
    const { master, variant } = await postsOf(user, spoken.id, "Our standup plan, in short.");
    // Tags go into the front matter as a YAML flow sequence (a JSON array), only where there are any.
    const { db } = await import("@/lib/db/client.ts");
    await (await db()).note.update({ where: { id: spoken.id }, data: { tags: ["standup", 'team "A"'] } });
    const theirs = await noteOf(other, { title: "Secret of theirs", audio: "file", rawText: "their secret words" });
    await addWord(other, "their word", "Theirs");
    await postsOf(other, theirs.id, "Their post.");

    const res = await asUser(user);
    assert.equal(res.status, 200, res.bytes.toString("utf8", 0, 300));
    assert.equal(res.headers.get("content-type"), "application/zip");
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(res.headers.get("content-disposition"), `attachment; filename="voicedraft-export-${today}.zip"`);

    const files = unzipSync(new Uint8Array(res.bytes));
    const id8 = (id: string) => id.replace(/-/g, "").slice(-8);
    const created = spoken.createdAt.toISOString().slice(0, 10);
    const spokenName = `${created}-standup-kubernetes-plan-${id8(spoken.id)}`;
    const cleanedName = `2026-11-20-so-we-moved-the-cluster-${id8(cleaned.id)}`;
    const postName = (item: { createdAt: Date; id: string }, s: string) => `posts/${item.createdAt.toISOString().slice(0, 10)}-${s}-${id8(item.id)}.md`;
    assert.deepEqual(Object.keys(files).sort(), [
      `audio/${spokenName}.webm`,
      "dictionary.csv",
      `notes/${cleanedName}.md`,
      `notes/${spokenName}.md`,
      postName(master, "a-post"),
      postName(variant, "a-post-linkedin"),
    ].sort());

    assert.equal(
      strFromU8(files[`notes/${cleanedName}.md`]),
      [
        "---",
        'title: "So we moved the cluster"',
        'date: "2026-11-20T09:15:00.000Z"',
        "duration: 12.4",
        'language: "en"',
        `id: "${cleaned.id}"`,
        "---",
        "",
        "So we moved the cluster. Then it worked.",
        "",
        "## Recognized text",
        "",
        "so we moved the cluster. then it worked",
        "",
      ].join("\n"),
    );
    const spokenMd = strFromU8(files[`notes/${spokenName}.md`]);
    assert.match(spokenMd, /^title: "Standup: Kubernetes plan"$/m);
    assert.match(spokenMd, /^tags: \["standup","team \\"A\\""\]$/m);
    assert.match(spokenMd, /\n\nstandup cooper netties plan\n\n## Recognized text\n\nstandup cooper netties plan\n$/);
    assert.deepEqual(Buffer.from(files[`audio/${spokenName}.webm`]), FAKE_WEBM);
    assert.equal(strFromU8(files["dictionary.csv"]), 'misspelling,correct_spelling\r\n"k eight s, ""the"" thing",Kubernetes\r\n');
    const variantMd = strFromU8(files[postName(variant, "a-post-linkedin")]);
    assert.match(variantMd, /^platform: "linkedin"$/m);
    assert.match(variantMd, /^status: "awaiting_approval"$/m);
    assert.match(variantMd, /^delivery: "copied"$/m);
    assert.match(variantMd, /\n\nOur standup plan, in short\. #linkedin\n$/);
    assert.match(strFromU8(files[postName(master, "a-post")]), new RegExp(`^source_note_id: "${spoken.id}"$`, "m"));

    const everything = Object.values(files).map((f) => Buffer.from(f).toString("latin1")).join("\n");
    for (const secret of ["their secret words", "Secret of theirs", "their word", "Their post", theirs.id]) {
      assert.ok(!everything.includes(secret), `another user's ${secret}`);
    }

    // An independent reader agrees: every CRC checks out, and the recording is stored, not deflated.
    const dir = await mkdtemp(path.join(tmpdir(), "vd-export-"));
    try {
      await writeFile(path.join(dir, "export.zip"), res.bytes);
      assert.match(unzipTool(res.bytes, dir, ["-t"]), /No errors detected/);
      const listing = unzipTool(res.bytes, dir, ["-v"]);
      assert.match(listing, new RegExp(`${FAKE_WEBM.length}\\s+Stored\\s+${FAKE_WEBM.length}\\s+0%.*audio/${spokenName}\\.webm`));
      assert.match(listing, /Defl:N.*dictionary\.csv/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("a recording in the database store is exported too; an empty account is a valid, nearly empty ZIP", async () => {
    const user = await createTestUser();
    const note = await noteOf(user, { audio: "database", rawText: "kept in the database" });
    const files = unzipSync(new Uint8Array((await asUser(user)).bytes));
    const audio = Object.keys(files).find((name) => name.startsWith("audio/"));
    assert.equal(audio, `audio/${note.createdAt.toISOString().slice(0, 10)}-kept-in-the-database-${note.id.replace(/-/g, "").slice(-8)}.webm`);
    assert.deepEqual(Buffer.from(files[audio!]), FAKE_WEBM);

    const empty = await createTestUser();
    const emptyFiles = unzipSync(new Uint8Array((await asUser(empty)).bytes));
    assert.deepEqual(Object.keys(emptyFiles), ["dictionary.csv"]);
    assert.equal(strFromU8(emptyFiles["dictionary.csv"]), "misspelling,correct_spelling\r\n");
  });

  test("the app's session cookie downloads it; no key is 401; a key without transcribe is 403; a query is 400", async () => {
    const user = await createTestUser();
    await noteOf(user, { rawText: "by cookie" });
    const { sessionToken } = await createSession({ userId: user.id });
    const byCookie = await download({ cookie: `next-auth.session-token=${sessionToken}` });
    assert.equal(byCookie.status, 200);
    assert.ok(Object.keys(unzipSync(new Uint8Array(byCookie.bytes))).some((name) => name.includes("by-cookie")));
    assert.equal((await download({})).status, 401);
    const readOnly = await createTestUser({ scopes: ["content:read"] });
    assert.equal((await asUser(readOnly)).status, 403);
    const query = await exportRoute(new Request("http://localhost/api/v1/export?x=1", { headers: { authorization: `Bearer ${user.key}` } }), {
      params: Promise.resolve({}),
    });
    assert.equal(query.status, 400);
  });

  test("file names: ASCII slugs, a fallback for titles without Latin letters; CSV quoting", () => {
    assert.equal(slug("Café — déjà vu!", "note"), "cafe-deja-vu");
    assert.equal(slug("東京の会議", "note"), "note");
    assert.equal(csvRow(["a", "b,c", 'say "hi"', "two\nlines"]), 'a,"b,c","say ""hi""","two\nlines"\r\n');
    // What a spreadsheet would run as a formula is made text; the same characters inside a word are left alone.
    assert.equal(csvRow(["=HYPERLINK(\"x\")", "+1", "-2", "@SUM(A1)", "e-mail"]), `"'=HYPERLINK(""x"")",'+1,'-2,'@SUM(A1),e-mail\r\n`);
  });
});
