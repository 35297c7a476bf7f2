// The second pass of a live recording (lib/transcription/live/hear-again.ts): Stop answers with the
// live pieces' text; the whole recording is then heard again behind live work, and its text takes
// the live text's place unless the person edited the note first. A spelling taught after Stop
// counts; a master still holding the live text follows. Real speech (jfk.wav twice, with a pause),
// WebM/Opus as a phone writes it, real PocketSphinx, on the database under test.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { PATCH as appendLive } from "@/app/api/v1/live-recordings/[id]/route.ts";
import { POST as finishLive } from "@/app/api/v1/live-recordings/[id]/finish/route.ts";
import { GET as getNote, PATCH as editNote } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { POST as addEntry } from "@/app/api/v1/dictionary/add/route.ts";
import { POST as postItem } from "@/app/api/v1/content/items/route.ts";
import { GET as getItem } from "@/app/api/v1/content/items/[id]/route.ts";
import { startJobWorkers, type JobWorkers } from "@/lib/jobs/workers.ts";
import { secondPassJob } from "@/lib/transcription/live/second-pass-job.ts";
import { hearingPlan, longestUnpaused, planHearingAgain, whenHeardAgain } from "@/lib/transcription/live/hear-again.ts";
import { recognizePieceJob } from "@/lib/transcription/recognition/recognize-pieces-job.ts";
import { closeJobQueue } from "@/lib/jobs/queue.ts";
import { resetEnvCache } from "@/lib/env.ts";
import { setUpTestDatabase, testDbKind } from "../support/database.ts";
import { createTestUser } from "../support/factories.ts";
import { JFK_WAV } from "../support/audio.ts";
import { call } from "../support/http.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.JOBS_POLL_SECONDS = "0.5";
process.env.RECOGNIZERS_PER_PROCESS = "2";
process.env.OPTIMIZER = "off";
process.env.SECOND_PASS = "auto";
// The second pass over live pieces, as a recording has them without a stream recognizer (whisper,
// or more recordings than LIVE_CAPTION_STREAMS): with one, the rest at Stop is the stream's, and
// a recording sent this fast may be a single piece, which a second pass would only hear again.
process.env.LIVE_CAPTION_STREAMS = "0";
const exec = promisify(execFile);

let dir: string;
let webm: Buffer;
let jfkOnce: Buffer;
let workers: JobWorkers;
after(async () => {
  await workers?.stop();
  await closeJobQueue();
  if (dir) await rm(dir, { recursive: true, force: true });
});
const database = setUpTestDatabase();

before(async () => {
  await database.ready;
  dir = await mkdtemp(path.join(tmpdir(), "vd-second-pass-"));
  // "…ask not what your country can do for you, ask what you can do for your country", twice, a
  // pause between: more than one live piece, one piece of an upload.
  const out = path.join(dir, "recording.webm");
  await exec("ffmpeg", [
    "-v", "error", "-i", JFK_WAV, "-f", "lavfi", "-t", "1.5", "-i", "anullsrc=r=16000:cl=mono", "-i", JFK_WAV,
    "-filter_complex", "[0:a]aresample=16000,aformat=channel_layouts=mono[a];[2:a]aresample=16000,aformat=channel_layouts=mono[b];[a][1:a][b]concat=n=3:v=0:a=1[out]",
    "-map", "[out]", "-ar", "48000", "-c:a", "libopus", "-b:a", "64k", "-f", "webm", "-live", "1", out,
  ]);
  webm = await readFile(out);
  const once = path.join(dir, "once.webm");
  await exec("ffmpeg", ["-v", "error", "-i", JFK_WAV, "-ar", "48000", "-c:a", "libopus", "-b:a", "64k", "-f", "webm", "-live", "1", once]);
  jfkOnce = await readFile(once);
  workers = await startJobWorkers([recognizePieceJob, secondPassJob], []);
});

const append = (key: string, id: string, offset: number, bytes: Uint8Array) =>
  call(appendLive, { method: "PATCH", path: `/api/v1/live-recordings/${id}?offset=${offset}`, key, body: new Uint8Array(bytes), headers: { "content-type": "audio/webm;codecs=opus" }, params: { id } });
const note = (key: string, id: string) => call(getNote, { path: `/api/v1/transcriptions/${id}`, key, params: { id } });

/** A live recording sent a second at a time, then Stop: the note as Stop answers it. */
async function recordLive(key: string, id: string, audio = webm) {
  const slice = Math.ceil(audio.length / 12);
  for (let offset = 0; offset < audio.length; offset += slice) {
    const res = await append(key, id, offset, audio.subarray(offset, offset + slice));
    assert.ok(res.status === 200 || res.status === 201, res.text);
  }
  const done = await call(finishLive, { method: "POST", path: `/api/v1/live-recordings/${id}/finish`, key, params: { id } });
  assert.equal(done.status, 201, done.text);
  return done.body;
}

// Each recording here is recognized twice by PocketSphinx (about a minute on a 2-core machine); what
// the database does for it (a conditional update, a master copied again) is what every other test
// file runs on both: once, in the PGlite pass.
const once = { skip: testDbKind === "postgres" ? "recognition-heavy and database-independent; runs in the PGlite pass" : false };

describe("the second pass of a live recording", once, () => {
  test("the live pieces are joined into an upload's pieces; the stream's words are heard again; recognized pieces are kept", () => {
    const piece = (index: number, start: number, end: number, provisional = false, cepstralMean = [40, 1, -2]) => ({
      index, start, end, result: { text: "words", segments: [], language: "en", engine: "pocketsphinx", cepstralMean, ...(provisional && { provisional: true as const }) },
    });
    const live = [piece(0, 0, 10), piece(1, 10.5, 21), piece(2, 22, 70), piece(3, 70, 80)];
    const spans = (plan: ReturnType<typeof hearingPlan>) => plan.map((step) => ("hear" in step ? step.hear : `keep ${step.keep.index}`));
    assert.deepEqual(spans(hearingPlan(live, { maxSeconds: 60, unpaused: false })), [{ start: 0, end: 21 }, { start: 22, end: 80 }]);
    assert.equal(planHearingAgain(live, "pocketsphinx"), true);
    assert.equal(planHearingAgain([piece(0, 0, 9)], "pocketsphinx"), false, "one live piece is the upload's one piece");
    assert.equal(planHearingAgain(live, "openai"), false, "a remote recognizer is not asked twice");
    // The stream's words, taken at Stop, are heard again: the rest as one piece of its own.
    assert.equal(planHearingAgain([piece(0, 0, 9, true)], "pocketsphinx"), true, "the rest the stream heard at Stop");
    const streamed = [piece(0, 0, 10), piece(1, 10, 21, true), piece(2, 22, 80), piece(3, 80, 85, true)];
    assert.deepEqual(spans(hearingPlan(streamed, { maxSeconds: 60, unpaused: false })), [{ start: 0, end: 21 }, "keep 2", { start: 80, end: 85 }]);
    // Speech without pauses is heard again in its live pieces, each alone.
    assert.deepEqual(spans(hearingPlan(streamed, { maxSeconds: 60, unpaused: true })), [{ start: 0, end: 10 }, { start: 10, end: 21 }, { start: 22, end: 80 }, { start: 80, end: 85 }]);
    // …from where the voice settled (PocketSphinx's cepstral mean); a recognizer that keeps none
    // would hear a recognized piece the same again.
    const whisper = streamed.map((p) => ({ ...p, result: { ...p.result, engine: "whisper", cepstralMean: undefined } }));
    assert.deepEqual(spans(hearingPlan(whisper, { maxSeconds: 60, unpaused: true })), ["keep 0", { start: 10, end: 21 }, "keep 2", { start: 80, end: 85 }]);
    // Speech without a pause of a second is heard better in its live pieces: how long it runs.
    assert.equal(longestUnpaused([{ start: 0, end: 11 }, { start: 12.5, end: 23.5 }, { start: 25, end: 36 }]), 11);
    assert.equal(longestUnpaused([{ start: 0, end: 11 }, { start: 11.4, end: 23 }, { start: 23.2, end: 40 }, { start: 42, end: 50 }]), 40);
  });

  test("the whole recording's text replaces the live text, with a spelling taught after Stop; a master made from it follows", async () => {
    const user = await createTestUser();
    const stopped = await recordLive(user.key, "second-pass-one");
    assert.equal(stopped.text_improving, true, "Stop says the text may still change");
    assert.equal(stopped.text_improved_at, null);
    assert.match(stopped.text, /\bcountry\b/, stopped.text);
    // After Stop, before the second pass has heard the recording: a spelling, and a post's master.
    const taught = await call(addEntry, { method: "POST", path: "/api/v1/dictionary/add", key: user.key, json: { misspelling: "country", correct_spelling: "nation" } });
    assert.equal(taught.status, 201, taught.text);
    const master = await call(postItem, { method: "POST", path: "/api/v1/content/items", key: user.key, json: { source_transcription_id: stopped.id } });
    assert.equal(master.status, 201, master.text);

    assert.equal(await whenHeardAgain(stopped.id), "improved");
    const heard = (await note(user.key, stopped.id)).body;
    assert.equal(heard.text_improving, false);
    assert.ok(heard.text_improved_at, "the note says its text improved");
    assert.equal(heard.edited_at, null, "not an edit of the person's");
    assert.match(heard.text, /\bnation\b/, heard.text);
    assert.doesNotMatch(heard.text, /\bcountry\b/, "the dictionary of now applies to the new text");
    assert.match(heard.raw_text, /\bcountry\b/, "the recognizer's own words are kept as raw_text");
    // Word times in the recording's time, in order, through both sayings (22 s and more).
    const starts = heard.segments.map((s: { start: number }) => s.start);
    assert.deepEqual([...starts].sort((a: number, b: number) => a - b), starts);
    assert.ok(heard.segments.at(-1).end > 18 && heard.segments.at(-1).end <= heard.duration + 0.05, JSON.stringify(heard.segments.at(-1)));
    // The insights were written again from the new text (their words come from it).
    assert.ok(heard.insights, "insights");
    // The master still held the live text: it now holds the new one, and is not outdated.
    const id = master.body.item.id;
    const followed = (await call(getItem, { path: `/api/v1/content/items/${id}`, key: user.key, params: { id } })).body.item;
    assert.match(followed.body, /\bnation\b/, followed.body);
    assert.equal(followed.source_outdated, false);
  });

  test("with a stream recognizer, the words Stop took from it are heard again by the full search", async () => {
    // One sentence, no pause: one live piece, the rest the stream heard at Stop. Until 2026-11-29
    // it kept the caption's lighter search as its text, with no second pass.
    process.env.LIVE_CAPTION_STREAMS = "3";
    resetEnvCache();
    try {
      const user = await createTestUser();
      const stopped = await recordLive(user.key, "second-pass-stream", jfkOnce);
      assert.equal(stopped.text_improving, true, "Stop says the text may still change");
      const outcome = await whenHeardAgain(stopped.id);
      assert.ok(outcome === "improved" || outcome === "unchanged", String(outcome));
      const heard = (await note(user.key, stopped.id)).body;
      assert.equal(heard.text_improving, false);
      assert.equal(Boolean(heard.text_improved_at), outcome === "improved");
      assert.match(heard.text, /\bcountry\b/, heard.text);
    } finally {
      process.env.LIVE_CAPTION_STREAMS = "0";
      resetEnvCache();
    }
  });

  test("an edit made before the second pass ends is kept: the live text is not replaced", async () => {
    const user = await createTestUser();
    const stopped = await recordLive(user.key, "second-pass-edited");
    const edited = await call(editNote, {
      method: "PATCH",
      path: `/api/v1/transcriptions/${stopped.id}`,
      key: user.key,
      params: { id: stopped.id },
      json: { text: "My own words about the speech.", updated_at: stopped.updated_at },
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(await whenHeardAgain(stopped.id), "edited");
    const kept = (await note(user.key, stopped.id)).body;
    assert.equal(kept.text, "My own words about the speech.");
    assert.equal(kept.text_improved_at, null);
    assert.equal(kept.text_improving, false);
  });
});
