import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { DELETE as deleteAccountRoute } from "@/app/api/v1/account/route.ts";
import { GET as listDictionary } from "@/app/api/v1/dictionary/route.ts";
import { POST as addEntry } from "@/app/api/v1/dictionary/add/route.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { db } from "@/lib/db/client.ts";
import { setUpContentTests } from "@/tests/api/content-support.ts";
import { audioDirOf, audioFileOf, exists, noteOf, postsOf } from "@/tests/api/user-data-support.ts";
import { createTestUser, type TestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { withEnv } from "@/tests/support/env.ts";

// Issue 24 item 5: DELETE /api/v1/account removes a user and everything of theirs, in every table
// and every audio store; only the signed-in app may do it, with the email typed again.

setUpContentTests({ workers: false });

const cookieOf = (token: string) => ({ cookie: `next-auth.session-token=${token}`, "sec-fetch-site": "same-origin" });
const remove = (headers: Record<string, string>, json: unknown, key?: string) =>
  call(deleteAccountRoute, { method: "DELETE", path: "/api/v1/account", headers, json, key });

/** A user with data in every table that can hold some: notes with audio in both stores, workflows, posts, … */
async function fullAccount() {
  const user = await createTestUser();
  const prisma = await db();
  const onDisk = await noteOf(user, { audio: "file", optimizedText: "On disk." });
  const inDb = await noteOf(user, { audio: "database", optimizedText: "In the database." });
  const { master, variant, channel } = await postsOf(user, onDisk.id);
  // A preset of theirs a variant was written with (presets, like channels, are ON DELETE RESTRICT).
  const preset = await prisma.preset.create({ data: { userId: user.id, name: "mine", tone: "plain", length: "short", format: "text", hashtags: [] } });
  await prisma.post.create({
    data: { userId: user.id, kind: "variant", masterId: master.id, title: "t", body: "b", contentHash: "h", channelId: channel.id, presetId: preset.id },
  });
  await prisma.variantRequest.create({
    data: { userId: user.id, clientRequestId: "req-1", masterId: master.id, requestHash: "h", status: 201, response: {} },
  });
  await prisma.noteClaim.create({ data: { userId: user.id, idempotencyKey: "k", requestHash: "h", token: "t" } });
  await prisma.account.create({ data: { userId: user.id, type: "oauth", provider: "example", providerAccountId: randomBytes(4).toString("hex") } });
  await prisma.rateLimit.create({ data: { key: `audio:${user.id}`, points: 5 } });
  await prisma.rateLimit.create({ data: { key: `api:session:${user.id}`, points: 1 } });
  await call(addEntry, { method: "POST", path: "/api/v1/dictionary/add", key: user.key, json: { misspelling: "cooper netties", correct_spelling: "Kubernetes" } });
  // A style of their own and a rewrite of a note in it (Rewrite as…).
  const style = await prisma.rewriteStyle.create({ data: { userId: user.id, name: "Standup", instructions: "Three bullets." } });
  await prisma.noteRewrite.create({
    data: { userId: user.id, transcriptionId: inDb.id, style: "custom", styleId: style.id, styleName: "Standup", title: "t", text: "x", writtenBy: "writer" },
  });
  const session = await createSession({ userId: user.id });
  return { user, notes: [onDisk, inDb], items: [master, variant], session };
}

/** Every id that is the user's or one of their rows', to look for anywhere in the database. */
async function idsOf(user: TestUser): Promise<string[]> {
  const prisma = await db();
  const where = { userId: user.id };
  const pick = (rows: { id: string }[]) => rows.map((r) => r.id);
  return [
    user.id,
    ...pick(await prisma.note.findMany({ where, select: { id: true } })),
    ...pick(await prisma.cleanUpWorkflow.findMany({ where, select: { id: true } })),
    ...pick(await prisma.recognitionWorkflow.findMany({ where, select: { id: true } })),
    ...pick(await prisma.post.findMany({ where, select: { id: true } })),
    ...pick(await prisma.channel.findMany({ where, select: { id: true } })),
    ...pick(await prisma.preset.findMany({ where, select: { id: true } })),
    ...pick(await prisma.apiKey.findMany({ where, select: { id: true } })),
    ...pick(await prisma.session.findMany({ where, select: { id: true } })),
    ...pick(await prisma.account.findMany({ where, select: { id: true } })),
    ...pick(await prisma.contentDelivery.findMany({ where, select: { id: true } })),
    ...pick(await prisma.generationTask.findMany({ where, select: { id: true } })),
    ...pick(await prisma.rewriteStyle.findMany({ where, select: { id: true } })),
    ...pick(await prisma.noteRewrite.findMany({ where, select: { id: true } })),
  ];
}

/**
 * Walks every table of the public schema and every column that can hold an id (text, varchar,
 * uuid): how many rows of each table name one of these ids (rate-limit keys end in one).
 */
async function rowsNaming(ids: string[]): Promise<Record<string, number>> {
  const prisma = await db();
  const columns = await prisma.$queryRawUnsafe<{ table_name: string; column_name: string }[]>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'uuid')
        AND table_name NOT LIKE '\\_prisma%' AND table_name NOT IN ('schema_migrations')
      ORDER BY table_name, column_name`,
  );
  const found: Record<string, number> = {};
  const tables = new Set(columns.map((c) => c.table_name));
  for (const table of tables) {
    const cols = columns.filter((c) => c.table_name === table).map((c) => `t."${c.column_name}"::text`);
    const [{ n }] = await prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "${table}" t WHERE EXISTS (
         SELECT 1 FROM unnest($1::text[]) AS ids(x), unnest(ARRAY[${cols.join(", ")}]) AS vals(v) WHERE v = x OR v LIKE '%:' || x)`,
      ids,
    );
    if (n) found[table] = n;
  }
  return found;
}

describe("DELETE /api/v1/account", () => {
  test(
    "removes the user from every table and every audio store; another user is untouched",
    withEnv({ RATE_LIMIT_STORE: "database" }, async () => {
      const { user, notes, session } = await fullAccount();
      const other = await fullAccount();
      const ids = await idsOf(user);
      const before = await rowsNaming(ids);
      // The walk sees the user's data everywhere it can be, so finding nothing afterwards means something.
      for (const table of [
        "users", "accounts", "sessions", "api_keys", "dictionary_entries", "transcriptions", "transcription_claims",
        "note_audio_chunks", "optimization_workflows", "optimization_chunks", "recognition_workflows", "recognition_pieces",
        "channels", "presets", "content_items", "generation_tasks", "variant_requests", "content_deliveries", "delivery_events", "rate_limits",
        "rewrite_styles", "note_rewrites",
      ]) {
        assert.ok(before[table] > 0, `the walk finds the user's rows in ${table}: ${JSON.stringify(before)}`);
      }
      assert.ok(exists(audioFileOf(user.id, notes[0].id)));
      const otherBefore = await rowsNaming(await idsOf(other.user));

      const res = await remove(cookieOf(session.sessionToken), { confirm: ` ${user.email.toUpperCase()} ` }); // case and surrounding spaces do not matter
      assert.equal(res.status, 204, res.text);
      const cleared = res.headers.getSetCookie();
      assert.ok(cleared.some((c) => /^next-auth\.session-token=;.*Max-Age=0/.test(c)), cleared.join(" | "));

      assert.deepEqual(await rowsNaming(ids), {}, "no row anywhere names the user or their rows");
      assert.equal(exists(audioDirOf(user.id)), false);
      assert.deepEqual(await rowsNaming(await idsOf(other.user)), otherBefore);
      assert.ok(exists(audioFileOf(other.user.id, other.notes[0].id)));
      const prisma = await db();
      assert.ok((await prisma.noteAudioChunk.count({ where: { transcriptionId: other.notes[1].id } })) > 1);

      // The session and the key are gone with it.
      assert.equal((await call(listDictionary, { path: "/api/v1/dictionary", headers: cookieOf(session.sessionToken) })).status, 401);
      assert.equal((await call(listDictionary, { path: "/api/v1/dictionary", key: user.key })).status, 401);
    }),
  );

  test("only the app's session may, with the email typed again; from another site it is refused", async () => {
    const user = await createTestUser();
    const { sessionToken } = await createSession({ userId: user.id });
    const byKey = await remove({}, { confirm: user.email }, user.key);
    assert.equal(byKey.status, 403);
    assert.equal(byKey.body.error.code, "session_required");
    for (const body of [{ confirm: "someone@else.example" }, {}, { confirm: user.email, also: 1 }]) {
      const res = await remove(cookieOf(sessionToken), body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, "validation_failed");
      if (!("also" in body)) assert.equal(res.body.error.details[0].path, "confirm");
    }
    const crossSite = await remove({ cookie: `next-auth.session-token=${sessionToken}`, "sec-fetch-site": "cross-site" }, { confirm: user.email });
    assert.equal(crossSite.status, 403);
    assert.equal(crossSite.body.error.code, "cross_site_request");
    assert.equal((await remove({}, { confirm: user.email })).status, 401);
    const prisma = await db();
    assert.equal(await prisma.user.count({ where: { id: user.id } }), 1, "nothing was deleted");
  });
});
