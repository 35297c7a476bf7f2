import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { before, describe, test } from "node:test";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { GET as getAudio } from "@/app/api/v1/transcriptions/[id]/audio/route.ts";
import { GET as getTranscription, PATCH as editTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { db } from "@/lib/db/client.ts";
import { env } from "@/lib/env.ts";
import { CHUNK_BYTES, databaseAudioStore } from "@/lib/note-audio/database-audio-store.ts";
import { parseRange } from "@/lib/note-audio/serve-note-audio.ts";
import { forgetExpiredAudio } from "@/lib/note-audio/sweep-audio-retention.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/factories.ts";
import { withEnv } from "../support/env.ts";
import { call } from "../support/http.ts";
import { JFK_OPENING_SECONDS, jfkOpening } from "../support/audio.ts";

// Issue 24: a note keeps its recording (Opus in WebM), served to its owner with Range support,
// in either audio store, for as long as the retention setting says.

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.OPTIMIZER = "off";
const database = setUpTestDatabase();

let owner: TestUser;
let stranger: TestUser;
// The first 3 s of jfk.wav: a recording to keep (what is said does not matter here).
let speech: Buffer;
before(async () => {
  await database.ready;
  owner = await createTestUser();
  stranger = await createTestUser();
  speech = await jfkOpening();
});

async function upload(user: TestUser, fields: Record<string, string> = {}) {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(speech)]), "opening.wav");
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  const res = await call(transcribe, { method: "POST", path: "/transcribe", key: user.key, body });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** GET …/audio with the raw bytes of the answer. */
async function audio(user: TestUser, id: string, headers: Record<string, string> = {}) {
  const req = new Request(`http://localhost/api/v1/transcriptions/${id}/audio`, {
    headers: { authorization: `Bearer ${user.key}`, ...headers },
  });
  const res = await getAudio(req, { params: Promise.resolve({ id }) });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString("utf8")) };
}

/** What ffmpeg says the kept file holds: its duration and codec. */
async function probe(bytes: Buffer): Promise<{ seconds: number; codec: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "vd-audio-"));
  try {
    const file = path.join(dir, "kept.webm");
    await writeFile(file, bytes);
    let info = "";
    try {
      execFileSync("ffmpeg", ["-hide_banner", "-i", file], { stdio: ["ignore", "ignore", "pipe"] });
    } catch (err) {
      info = String((err as { stderr: Buffer }).stderr);
    }
    const [, h, m, s] = info.match(/Duration: (\d+):(\d+):([\d.]+)/) ?? [];
    return { seconds: Number(h) * 3600 + Number(m) * 60 + Number(s), codec: info.match(/Audio: (\w+)/)?.[1] ?? "" };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("a note's recording is kept and served (issue 24)", () => {
  for (const store of ["file", "database"] as const) {
    test(
      `${store} store: kept compressed, served whole, by Range, suffix, 416 past the end, 304 by ETag`,
      withEnv({ AUDIO_STORE: store }, async () => {
        const note = await upload(owner);
        assert.equal(note.audio.url, `/api/v1/transcriptions/${note.id}/audio`);
        assert.equal(note.audio.content_type, "audio/webm; codecs=opus");
        // 3 s of speech at 20 kbit/s: about 8 KB, a fraction of the 96 KB WAV.
        assert.ok(note.audio.bytes > 5_000 && note.audio.bytes < speech.length / 5, `kept ${note.audio.bytes} bytes`);

        const whole = await audio(owner, note.id);
        assert.equal(whole.status, 200);
        assert.equal(whole.headers.get("content-type"), "audio/webm; codecs=opus");
        assert.equal(whole.headers.get("accept-ranges"), "bytes");
        assert.equal(Number(whole.headers.get("content-length")), note.audio.bytes);
        assert.equal(whole.bytes.length, note.audio.bytes);
        assert.equal(whole.bytes.subarray(0, 4).toString("hex"), "1a45dfa3", "a WebM (EBML) file");
        const { seconds, codec } = await probe(whole.bytes);
        assert.equal(codec, "opus");
        assert.ok(Math.abs(seconds - JFK_OPENING_SECONDS) < 0.5, `plays ${seconds} s`);

        const first = await audio(owner, note.id, { range: "bytes=0-99" });
        assert.equal(first.status, 206);
        assert.equal(first.headers.get("content-range"), `bytes 0-99/${note.audio.bytes}`);
        assert.deepEqual(first.bytes, whole.bytes.subarray(0, 100));

        const open = await audio(owner, note.id, { range: "bytes=1000-" });
        assert.equal(open.status, 206);
        assert.deepEqual(open.bytes, whole.bytes.subarray(1000));

        const suffix = await audio(owner, note.id, { range: "bytes=-50" });
        assert.equal(suffix.status, 206);
        assert.equal(suffix.headers.get("content-range"), `bytes ${note.audio.bytes - 50}-${note.audio.bytes - 1}/${note.audio.bytes}`);
        assert.deepEqual(suffix.bytes, whole.bytes.subarray(-50));

        const past = await audio(owner, note.id, { range: `bytes=${note.audio.bytes}-` });
        assert.equal(past.status, 416);
        assert.equal(past.headers.get("content-range"), `bytes */${note.audio.bytes}`);
        assert.equal(past.json().error.code, "range_not_satisfiable");

        const etag = whole.headers.get("etag")!;
        assert.ok(etag);
        assert.equal((await audio(owner, note.id, { "if-none-match": etag })).status, 304);
        // If-Range with an old ETag: the whole (new) file, not a piece of it.
        assert.equal((await audio(owner, note.id, { range: "bytes=0-9", "if-range": '"old"' })).status, 200);
      }),
    );
  }

  test("owner only: another user's key or session gets 404, as for an unknown id; the owner's session plays it", async () => {
    const note = await upload(owner);
    const foreign = await audio(stranger, note.id);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.json().error.code, "not_found");
    const bySession = async (userId: string) => {
      const { sessionToken } = await createSession({ userId });
      const req = new Request(`http://localhost/api/v1/transcriptions/${note.id}/audio`, {
        headers: { cookie: `next-auth.session-token=${sessionToken}`, "sec-fetch-site": "same-origin", range: "bytes=0-3" },
      });
      return getAudio(req, { params: Promise.resolve({ id: note.id }) });
    };
    assert.equal((await bySession(stranger.id)).status, 404);
    const mine = await bySession(owner.id);
    assert.equal(mine.status, 206);
    assert.equal(Buffer.from(await mine.arrayBuffer()).toString("hex"), "1a45dfa3");
    assert.equal((await audio(owner, "0196f3a0-0000-7000-8000-000000000000")).status, 404);
  });

  test("keep_audio=false keeps none: the note has audio null and its audio is 404", async () => {
    const note = await upload(owner, { keep_audio: "false" });
    assert.equal(note.audio, null);
    assert.ok(note.text.length > 0, "the text is kept");
    const res = await audio(owner, note.id);
    assert.equal(res.status, 404);
    assert.match(res.json().error.message, /kept recording/);
  });

  test(
    "AUDIO_RETENTION_DAYS=0 keeps nothing: no row of audio, no file",
    withEnv({ AUDIO_RETENTION_DAYS: "0", AUDIO_STORE: "file" }, async () => {
      const note = await upload(owner);
      assert.equal(note.audio, null);
      assert.equal(existsSync(path.join(env().dataDir, "audio", owner.id, `${note.id}.webm`)), false);
      const prisma = await db();
      assert.equal(await prisma.noteAudioChunk.count({ where: { transcriptionId: note.id } }), 0);
    }),
  );

  test(
    "the retention sweep forgets audio kept longer than AUDIO_RETENTION_DAYS, and keeps the note",
    withEnv({ AUDIO_RETENTION_DAYS: "30" }, async () => {
      const old = await upload(owner);
      const recent = await upload(owner);
      const prisma = await db();
      await prisma.note.update({ where: { id: old.id }, data: { audioKeptAt: new Date(Date.now() - 31 * 86_400_000) } });
      assert.ok((await forgetExpiredAudio()) >= 1);
      const file = (id: string) => path.join(env().dataDir, "audio", owner.id, `${id}.webm`);
      assert.equal(existsSync(file(old.id)), false);
      assert.equal(existsSync(file(recent.id)), true);
      const read = await call(getTranscription, { path: `/api/v1/transcriptions/${old.id}`, key: owner.key, params: { id: old.id } });
      assert.equal(read.body.audio, null);
      assert.equal(read.body.text, old.text);
      assert.equal((await audio(owner, recent.id)).status, 200);
    }),
  );

  test("the database store reads any range across its 256 KiB chunks", async () => {
    const note = await upload(owner, { keep_audio: "false" });
    const dir = await mkdtemp(path.join(tmpdir(), "vd-chunks-"));
    try {
      const data = randomBytes(CHUNK_BYTES * 2 + 12_345);
      await writeFile(path.join(dir, "a.webm"), data);
      const key = { userId: owner.id, transcriptionId: note.id };
      assert.equal(await databaseAudioStore.put(key, path.join(dir, "a.webm")), data.length);
      const read = async (start: number, end: number) => {
        const parts: Uint8Array[] = [];
        for await (const part of databaseAudioStore.read(key, { start, end })) parts.push(part);
        return Buffer.concat(parts);
      };
      for (const [start, end] of [[0, data.length - 1], [CHUNK_BYTES - 10, CHUNK_BYTES + 10], [CHUNK_BYTES, CHUNK_BYTES], [data.length - 5, data.length - 1]]) {
        assert.deepEqual(await read(start, end), data.subarray(start, end + 1), `${start}-${end}`);
      }
      await databaseAudioStore.remove([key]);
      assert.equal((await read(0, 10)).length, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("Range headers: one range served, anything else the whole file", () => {
    assert.deepEqual(parseRange("bytes=0-0", 10), { start: 0, end: 0 });
    assert.deepEqual(parseRange("bytes=5-100", 10), { start: 5, end: 9 });
    assert.deepEqual(parseRange("bytes=-3", 10), { start: 7, end: 9 });
    assert.deepEqual(parseRange("bytes=-30", 10), { start: 0, end: 9 });
    assert.equal(parseRange("bytes=10-", 10), "unsatisfiable");
    assert.equal(parseRange("bytes=-0", 10), "unsatisfiable");
    assert.equal(parseRange("bytes=5-1", 10), null);
    assert.equal(parseRange("bytes=0-1,4-5", 10), null);
    assert.equal(parseRange("items=0-1", 10), null);
    assert.equal(parseRange(null, 10), null);
  });
});

describe("a note has a name and a recorded time (issue 24)", () => {
  test("PATCH title renames without touching the text; null removes it; recorded_at comes from the upload", async () => {
    const note = await upload(owner, { keep_audio: "false", recorded_at: "2026-11-20T07:30:00.000Z" });
    assert.equal(note.title, null);
    assert.equal(note.recorded_at, "2026-11-20T07:30:00.000Z");
    const at = { path: `/api/v1/transcriptions/${note.id}`, params: { id: note.id }, key: owner.key, method: "PATCH" };
    const renamed = await call(editTranscription, { ...at, json: { title: "  Ask not  " } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.title, "Ask not");
    assert.equal(renamed.body.text, note.text);
    assert.equal(renamed.body.edited_at, null, "a rename is not a text edit");
    assert.equal((await call(editTranscription, { ...at, json: { title: "a\u202Eb" } })).status, 400);
    assert.equal((await call(editTranscription, { ...at, json: {} })).status, 400);
    const cleared = await call(editTranscription, { ...at, json: { title: null } });
    assert.equal(cleared.body.title, null);
  });
});
