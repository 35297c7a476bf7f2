// An older note heard again with a better recognizer, on request (issue 57 item 2:
// lib/transcription/recognition/hear-note-again.ts), and its Undo. The note is made by real
// PocketSphinx from jfk.wav and its recording kept as the app keeps it (Opus in WebM); "the
// accurate recognizer that arrived since" is whisper on whisper.cpp's test model (it runs and hears
// no words), or an OpenAI-compatible server: a Voicedraft peer in its own process, PocketSphinx
// behind it, whose account spells "country" as "nation", so that its words differ.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { GET as getNote, PATCH as editNote } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { POST as hearAgain } from "@/app/api/v1/transcriptions/[id]/hear-again/route.ts";
import { POST as undoHearing } from "@/app/api/v1/transcriptions/[id]/hear-again/undo/route.ts";
import { POST as addEntry } from "@/app/api/v1/dictionary/add/route.ts";
import { POST as postItem } from "@/app/api/v1/content/items/route.ts";
import { GET as getItem } from "@/app/api/v1/content/items/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import { startJobWorkers, type JobWorkers } from "@/lib/jobs/workers.ts";
import { secondPassJob, recoverSecondPassesSweep } from "@/lib/transcription/live/second-pass-job.ts";
import { whenHeardAgain } from "@/lib/transcription/recognition/second-passes.ts";
import { resetRecognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestUser, type TestUser } from "../support/factories.ts";
import { withEnv } from "../support/env.ts";
import { call } from "../support/http.ts";
import { JFK_WAV } from "../support/audio.ts";
import { startRouteServer } from "../support/processes.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.OPTIMIZER = "off";
const WHISPER_TEST_MODEL = new URL("../fixtures/for-tests-ggml-tiny.en.bin", import.meta.url).pathname;
const database = setUpTestDatabase();

let jfk: Buffer;
let peer: { url: string; stop(): Promise<void> };
let peerKey: string;
before(async () => {
  await database.ready;
  jfk = await readFile(JFK_WAV);
  // The accurate recognizer of the test that needs words: an OpenAI-compatible server.
  const peerUser = await createTestUser();
  peerKey = peerUser.key;
  const taught = await call(addEntry, { method: "POST", path: "/api/v1/dictionary/add", key: peerKey, json: { misspelling: "country", correct_spelling: "nation" } });
  assert.equal(taught.status, 201, taught.text);
  peer = await startRouteServer({ DATABASE_URL: database.url(), TRANSCRIBE_ENGINE: "pocketsphinx" });
});
let workers: JobWorkers | undefined;
const startPasses = async () => (workers ??= await startJobWorkers([secondPassJob], []));
after(async () => {
  await workers?.stop();
  await peer?.stop();
  await resetRecognitionEngine();
});

async function upload(user: TestUser, fields: Record<string, string> = {}) {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(jfk)]), "jfk.wav");
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  const res = await call(transcribe, { method: "POST", path: "/transcribe", key: user.key, body });
  assert.equal(res.status, 200, res.text);
  return res.body;
}
const at = (id: string, tail = "") => ({ method: "POST", path: `/api/v1/transcriptions/${id}${tail}`, params: { id } });
const hear = (key: string, id: string) => call(hearAgain, { ...at(id, "/hear-again"), key });
const undo = (key: string, id: string) => call(undoHearing, { ...at(id, "/hear-again/undo"), key });
const read = async (key: string, id: string) => (await call(getNote, { path: `/api/v1/transcriptions/${id}`, key, params: { id } })).body;
const accurate = { TRANSCRIBE_ENGINE: "openai", OPENAI_BASE_URL: "", OPENAI_API_KEY: "" };

describe("hearing an older note again with a better recognizer (issue 57 item 2)", () => {
  test("the better recognizer's words replace the note's, posts follow; Undo puts back the text, its engine, and the posts", async () => {
    const user = await createTestUser();
    const made = await upload(user);
    assert.equal(made.engine, "pocketsphinx");
    assert.match(made.text, /\bcountry\b/, made.text);
    assert.ok(made.audio, "the recording is kept");
    assert.equal(made.text_improved_undoable, false);
    const madeSegments = (await read(user.key, made.id)).segments;
    const master = await call(postItem, { method: "POST", path: "/api/v1/content/items", key: user.key, json: { source_transcription_id: made.id } });
    assert.equal(master.status, 201, master.text);
    const itemId = master.body.item.id;
    const item = async () => (await call(getItem, { path: `/api/v1/content/items/${itemId}`, key: user.key, params: { id: itemId } })).body.item;

    // While the server has only the basic recognizer, hearing it again would change nothing.
    const same = await hear(user.key, made.id);
    assert.equal(same.status, 409, same.text);
    assert.equal(same.body.error.code, "no_better_recognizer");
    assert.match(same.body.error.message, /basic recognizer/);

    await startPasses();
    await withEnv({ ...accurate, OPENAI_BASE_URL: `${peer.url}/v1`, OPENAI_API_KEY: peerKey }, async () => {
      const started = await hear(user.key, made.id);
      assert.equal(started.status, 202, started.text);
      assert.equal(started.body.text_improving, true);
      assert.equal(started.body.text, made.text, "the text stays until the new one is heard");
      const twice = await hear(user.key, made.id);
      assert.equal(twice.status, 409, twice.text);
      assert.equal(twice.body.error.code, "already_improving");

      assert.equal(await whenHeardAgain(made.id), "improved");
      const heard = await read(user.key, made.id);
      assert.equal(heard.text_improving, false);
      assert.equal(heard.engine, "openai");
      assert.ok(heard.text_improved_at);
      assert.equal(heard.edited_at, null, "not an edit of the person's");
      assert.equal(heard.text_improved_undoable, true);
      assert.match(heard.text, /\bnation\b/, heard.text);
      assert.ok(heard.segments.length >= 1 && heard.segments.at(-1).end <= heard.duration + 0.05, JSON.stringify(heard.segments.at(-1)));
      assert.match((await item()).body, /\bnation\b/, "the post's master follows the new text");

      const restored = await undo(user.key, made.id);
      assert.equal(restored.status, 200, restored.text);
      assert.equal(restored.body.text, made.text);
      assert.equal(restored.body.raw_text, made.raw_text);
      assert.equal(restored.body.engine, "pocketsphinx");
      assert.equal(restored.body.text_improved_at, null);
      assert.equal(restored.body.text_improved_undoable, false);
      assert.deepEqual(restored.body.segments, (await read(user.key, made.id)).segments);
      assert.equal(restored.body.segments.length, madeSegments.length);
      const back = await item();
      assert.match(back.body, /\bcountry\b/, "the master follows back");
      assert.equal(back.source_outdated, false);

      const again = await undo(user.key, made.id);
      assert.equal(again.status, 409, again.text);
      assert.equal(again.body.error.code, "nothing_to_undo");
    })();
  });

  test("whisper that hears no words leaves the note as it was, and says it is done", async () => {
    const user = await createTestUser();
    const made = await upload(user);
    await startPasses();
    await withEnv({ TRANSCRIBE_ENGINE: "whisper", WHISPER_MODEL: WHISPER_TEST_MODEL }, async () => {
      const started = await hear(user.key, made.id);
      assert.equal(started.status, 202, started.text);
      assert.equal(await whenHeardAgain(made.id), "skipped");
      const kept = await read(user.key, made.id);
      assert.equal(kept.text, made.text);
      assert.equal(kept.engine, "pocketsphinx");
      assert.equal(kept.text_improving, false);
      assert.equal(kept.text_improved_at, null);
      assert.equal(kept.text_improved_undoable, false);
      const none = await undo(user.key, made.id);
      assert.equal(none.status, 409, none.text);
      assert.equal(none.body.error.code, "nothing_to_undo");
    })();
  });

  // Issue 66, item 6: a pass accepted with 202 was lost on kill -9 (an in-memory queue). Now a job.
  test("a pass accepted before a restart runs after it: queued, the process's state gone, workers started again, the note improved", async () => {
    await workers?.stop();
    workers = undefined;
    const user = await createTestUser();
    const made = await upload(user);
    await withEnv({ ...accurate, OPENAI_BASE_URL: `${peer.url}/v1`, OPENAI_API_KEY: peerKey }, async () => {
      const started = await hear(user.key, made.id);
      assert.equal(started.status, 202, started.text);
      assert.equal(started.body.text_improving, true);
      // The restart: nothing of the pass left in this process, and its mark not renewed for two minutes.
      delete (globalThis as { voicedraftSecondPasses?: unknown }).voicedraftSecondPasses;
      const prisma = await db();
      await prisma.note.updateMany({ where: { id: made.id }, data: { textImprovingSince: new Date(Date.now() - 120_000) } });
      assert.equal((await read(user.key, made.id)).text_improving, false, "unrenewed, the mark has lapsed");
      // The new process's sweep says it again while the pass waits, and queues no second one.
      assert.equal(await recoverSecondPassesSweep(), 1);
      assert.equal((await read(user.key, made.id)).text_improving, true);
      await startPasses();
      let heard = await read(user.key, made.id);
      for (const until = Date.now() + 60_000; heard.text_improving && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        heard = await read(user.key, made.id);
      }
      assert.equal(heard.text_improving, false);
      assert.ok(heard.text_improved_at, "the pass ran after the restart");
      assert.match(heard.text, /\bnation\b/, heard.text);
      assert.equal(heard.engine, "openai");
      // It ran once: the note is not heard a second time (nothing is queued for it).
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      assert.equal((await read(user.key, made.id)).text_improved_at, heard.text_improved_at);
    })();
  });

  test("a note without its recording, an edited note and someone else's are refused, each with its reason", async () => {
    const user = await createTestUser();
    const stranger = await createTestUser();
    const unkept = await upload(user, { keep_audio: "false" });
    const edited = await upload(user);
    const changed = await call(editNote, { method: "PATCH", path: `/api/v1/transcriptions/${edited.id}`, key: user.key, params: { id: edited.id }, json: { text: "My own words." } });
    assert.equal(changed.status, 200, changed.text);
    await withEnv({ TRANSCRIBE_ENGINE: "whisper", WHISPER_MODEL: WHISPER_TEST_MODEL }, async () => {
      const noAudio = await hear(user.key, unkept.id);
      assert.equal(noAudio.status, 409, noAudio.text);
      assert.equal(noAudio.body.error.code, "no_audio_kept");
      const mine = await hear(user.key, edited.id);
      assert.equal(mine.status, 409, mine.text);
      assert.equal(mine.body.error.code, "note_edited");
      const theirs = await hear(stranger.key, edited.id);
      assert.equal(theirs.status, 404, theirs.text);
      assert.equal((await undo(stranger.key, edited.id)).status, 404);
      assert.equal((await read(user.key, edited.id)).text, "My own words.", "nothing changed");
    })();
  });
});
