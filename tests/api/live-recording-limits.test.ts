// Issue 44, item 6, "one key can fill the disk": the limits of live recordings. At most
// LIVE_RECORDINGS_OPEN_MAX open per account (a burst included); one that takes no audio for
// LIVE_RECORDING_IDLE_MINUTES no longer counts and the sweep makes it a note; new bytes that are
// not audio are refused before they are kept (415); and the account's audio quota (413).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { GET as getLive, PATCH as appendLive } from "@/app/api/v1/live-recordings/[id]/route.ts";
import { GET as getSettings } from "@/app/api/v1/settings/route.ts";
import { GET as getNote } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { db } from "@/lib/db/client.ts";
import { startJobWorkers, type JobWorkers } from "@/lib/jobs/workers.ts";
import { UNFINISHED_TAIL_MAX_BYTES } from "@/lib/transcription/live/check-live-bytes.ts";
import { finishIdleLiveRecordings } from "@/lib/transcription/live/finish-idle-live-recordings.ts";
import { recognizePieceJob } from "@/lib/transcription/recognition/recognize-pieces-job.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { withEnv } from "../support/env.ts";
import { createTestUser, type TestUser } from "../support/factories.ts";
import { ffmpegFixture, JFK_WAV } from "../support/audio.ts";
import { call } from "../support/http.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.JOBS_POLL_SECONDS = "0.5";
process.env.RECOGNIZERS_PER_PROCESS = "2";
process.env.OPTIMIZER = "off";
const database = setUpTestDatabase();

const WEBM = ["-ar", "48000", "-c:a", "libopus", "-f", "webm", "-live", "1"];
let speech: Buffer; // JFK's 11 s, as a phone's MediaRecorder writes it
let noise: Buffer; // 40 s of noise at a high bitrate: well past the size where appends are probed
let workers: JobWorkers;

before(async () => {
  await database.ready;
  speech = await ffmpegFixture("jfk-live.webm", ["-i", JFK_WAV, ...WEBM, "-b:a", "64k"]);
  noise = await ffmpegFixture("noise-live.webm", ["-f", "lavfi", "-i", "anoisesrc=r=48000:a=0.05:d=40", ...WEBM, "-b:a", "256k"]);
  assert.ok(noise.length > 4 * UNFINISHED_TAIL_MAX_BYTES, `noise fixture: ${noise.length} bytes`);
  workers = await startJobWorkers([recognizePieceJob], []);
});
after(async () => {
  await workers?.stop();
});

const append = (user: TestUser, id: string, offset: number, bytes: Uint8Array, type = "audio/webm;codecs=opus") =>
  call(appendLive, { method: "PATCH", path: `/api/v1/live-recordings/${id}?offset=${offset}`, key: user.key, body: new Uint8Array(bytes), headers: { "content-type": type }, params: { id } });
const read = (user: TestUser, id: string) => call(getLive, { path: `/api/v1/live-recordings/${id}`, key: user.key, params: { id } });
const minutesAgo = async (user: TestUser, id: string, minutes: number) => {
  const prisma = await db();
  await prisma.$executeRaw`UPDATE live_recordings SET updated_at = now() - make_interval(mins => ${minutes}::int) WHERE user_id = ${user.id} AND id = ${id}`;
};
/** Sends a whole recording in slices of `size` bytes; every one must be taken. */
async function sendAll(user: TestUser, id: string, bytes: Buffer, size: number) {
  for (let offset = 0; offset < bytes.length; offset += size) {
    const res = await append(user, id, offset, bytes.subarray(offset, offset + size));
    assert.ok(res.status === 200 || res.status === 201, `at ${offset}: ${res.status} ${res.text}`);
  }
}

describe("open live recordings per account (LIVE_RECORDINGS_OPEN_MAX, default 3)", () => {
  test("the fourth is 429 too_many_live_recordings with Retry-After; an idle one no longer counts; others' count apart", async () => {
    const user = await createTestUser();
    for (const id of ["open-1", "open-2", "open-3"]) assert.equal((await append(user, id, 0, speech.subarray(0, 3000))).status, 201);
    const refused = await append(user, "open-4", 0, speech.subarray(0, 3000));
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.error.code, "too_many_live_recordings");
    assert.match(refused.body.error.message, /finish one|POST \/transcribe/i);
    const wait = Number(refused.headers.get("retry-after"));
    assert.ok(wait > 590 && wait <= 600, `Retry-After ${wait}: when the oldest goes idle`);
    assert.equal((await read(user, "open-4")).status, 404, "nothing of it was kept");
    // The open ones still take their audio.
    assert.equal((await append(user, "open-2", 3000, speech.subarray(3000, 6000))).status, 200);
    // Someone else's recordings are theirs.
    assert.equal((await append(await createTestUser(), "open-1", 0, speech.subarray(0, 3000))).status, 201);

    // The one appended to longest ago goes idle soonest: Retry-After says when.
    await minutesAgo(user, "open-1", 9);
    assert.ok(Number((await append(user, "open-4", 0, speech.subarray(0, 3000))).headers.get("retry-after")) <= 60);
    // Ten minutes without audio: it no longer counts.
    await minutesAgo(user, "open-1", 11);
    assert.equal((await append(user, "open-4", 0, speech.subarray(0, 3000))).status, 201);
    assert.equal((await append(user, "open-5", 0, speech.subarray(0, 3000))).status, 429);
  });

  test("200 opened at once: exactly 3 are taken, every other one is 429", async () => {
    const user = await createTestUser();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => append(user, `burst-${i}`, 0, speech.subarray(0, 3000))));
    const statuses = answers.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 3, JSON.stringify(answers.find((r) => r.status !== 201 && r.status !== 429)?.text));
    assert.equal(statuses.filter((s) => s === 429).length, 197);
    const prisma = await db();
    assert.equal(await prisma.liveRecording.count({ where: { userId: user.id } }), 3);
  });

  test("the same first PATCH sent twice at once, for the last open place: one recording, neither refused as one too many", async () => {
    const user = await createTestUser();
    for (const id of ["held-1", "held-2"]) assert.equal((await append(user, id, 0, speech.subarray(0, 3000))).status, 201);
    const twice = await Promise.all([append(user, "twice", 0, speech.subarray(0, 3000)), append(user, "twice", 0, speech.subarray(0, 3000))]);
    assert.ok(twice.every((r) => r.status !== 429), twice.map((r) => `${r.status} ${r.text}`).join("; "));
    assert.ok(twice.some((r) => r.status === 201));
    assert.equal((await read(user, "twice")).body.bytes_received, 3000);
    assert.equal((await append(user, "one-more", 0, speech.subarray(0, 3000))).status, 429);
  });

  test("LIVE_RECORDINGS_OPEN_MAX=1 allows one; 0 turns the limit off", withEnv({ LIVE_RECORDINGS_OPEN_MAX: "1" }, async () => {
    const user = await createTestUser();
    assert.equal((await append(user, "one", 0, speech.subarray(0, 3000))).status, 201);
    assert.equal((await append(user, "two", 0, speech.subarray(0, 3000))).status, 429);
    process.env.LIVE_RECORDINGS_OPEN_MAX = "0";
    (await import("@/lib/env.ts")).resetEnvCache();
    for (const id of ["two", "three", "four"]) assert.equal((await append(user, id, 0, speech.subarray(0, 3000))).status, 201);
  }));
});

describe("the sweep of idle live recordings", () => {
  test("one no audio reached for LIVE_RECORDING_IDLE_MINUTES becomes a note of what was said; a live one is left; one with nothing said goes", async () => {
    const user = await createTestUser();
    await sendAll(user, "idle-speech", speech, 16_000);
    await sendAll(user, "still-going", speech.subarray(0, 20_000), 10_000);
    await append(user, "idle-header", 0, speech.subarray(0, 300)); // a header, no audio
    await minutesAgo(user, "idle-speech", 11);
    await minutesAgo(user, "idle-header", 11);

    assert.equal(await finishIdleLiveRecordings(), 1);
    const made = await read(user, "idle-speech");
    assert.equal(made.body.status, "done");
    const note = await call(getNote, { path: `/api/v1/transcriptions/${made.body.transcription_id}`, key: user.key, params: { id: made.body.transcription_id } });
    assert.equal(note.status, 200, note.text);
    // JFK's words are in the note. PocketSphinx hears them roughly, and how roughly depends on where
    // the pieces fall ("and i got my alma mater and not why are our end you're…" on one machine):
    // at least three of its words, not any one word in particular.
    const JFK_WORDS = new Set("and so my fellow americans ask not what your country can do for you".split(" "));
    const heard = new Set(note.body.text.toLowerCase().match(/[a-z']+/g) ?? []);
    assert.ok([...heard].filter((w) => JFK_WORDS.has(w as string)).length >= 3, `JFK's words in the note: ${note.body.text}`);
    assert.equal((await read(user, "still-going")).body.status, "recording", "not idle: left as it is");
    assert.equal((await read(user, "idle-header")).status, 404, "held nothing to hear: dropped");
    const prisma = await db();
    assert.equal(await prisma.liveRecordingChunk.count({ where: { userId: user.id, recordingId: "idle-header" } }), 0);
    assert.equal(await finishIdleLiveRecordings(), 0, "nothing left to sweep");
  });

  test("a shorter LIVE_RECORDING_IDLE_MINUTES: idle sooner", withEnv({ LIVE_RECORDING_IDLE_MINUTES: "2" }, async () => {
    const user = await createTestUser();
    await sendAll(user, "short-idle", speech.subarray(0, 3000), 3000);
    await minutesAgo(user, "short-idle", 1);
    const prisma = await db();
    const { idleSince } = await import("@/lib/transcription/live/open-live-recordings.ts");
    const idle = () => prisma.liveRecording.count({ where: { userId: user.id, status: "recording", updatedAt: { lt: idleSince() } } });
    assert.equal(await idle(), 0);
    await minutesAgo(user, "short-idle", 3);
    assert.equal(await idle(), 1);
  }));
});

describe("appended bytes must be audio (415 before they are kept)", () => {
  test("after a valid WebM header, 8 MiB of random bytes are refused and nothing of them kept; the real audio goes on; garbage in small bites is refused too", async () => {
    const user = await createTestUser();
    const header = noise.subarray(0, 4500);
    assert.equal((await append(user, "garbage", 0, header)).status, 201);
    for (const size of [8 * 1024 * 1024, UNFINISHED_TAIL_MAX_BYTES + 1024]) {
      const refused = await append(user, "garbage", header.length, randomBytes(size));
      assert.equal(refused.status, 415, refused.text);
      assert.equal(refused.body.error.code, "unsupported_audio");
      assert.match(refused.body.error.message, /not audio/);
    }
    assert.equal((await read(user, "garbage")).body.bytes_received, header.length);
    const prisma = await db();
    const kept = await prisma.liveRecordingChunk.findMany({ where: { userId: user.id, recordingId: "garbage" }, select: { data: true } });
    assert.equal(kept.reduce((n, c) => n + c.data.length, 0), header.length);
    // The recorder's own bytes go on from there.
    const going = await append(user, "garbage", header.length, noise.subarray(header.length, 600_000));
    assert.equal(going.status, 200, going.text);
    assert.equal(going.body.bytes_received, 600_000);
    // Garbage a little at a time is refused too, once more of it waits than a packet could.
    let offset = 600_000;
    let refusedAt: number | null = null;
    for (let i = 0; i < 40 && refusedAt === null; i++) {
      const res = await append(user, "garbage", offset, randomBytes(16 * 1024));
      if (res.status === 415) refusedAt = offset;
      else offset = res.body.bytes_received;
    }
    assert.ok(refusedAt !== null && refusedAt <= 600_000 + UNFINISHED_TAIL_MAX_BYTES, `refused at ${refusedAt}`);
  });

  test("random bytes in the first PATCH after a header: 415, and no recording", async () => {
    const user = await createTestUser();
    const res = await append(user, "garbage-first", 0, Buffer.concat([speech.subarray(0, 4500), randomBytes(1024 * 1024)]));
    assert.equal(res.status, 415, res.text);
    assert.equal((await read(user, "garbage-first")).status, 404);
  });

  test("real recordings go through whole in any slicing: WebM, Ogg and a phone's fragmented MP4", async () => {
    const user = await createTestUser();
    const ogg = await ffmpegFixture("noise-live.ogg", ["-f", "lavfi", "-i", "anoisesrc=r=48000:a=0.05:d=30", "-c:a", "libopus", "-b:a", "256k", "-f", "ogg"]);
    const mp4 = await ffmpegFixture("noise-live.mp4", ["-f", "lavfi", "-i", "anoisesrc=r=48000:a=0.05:d=30", "-c:a", "aac", "-b:a", "192k", "-f", "mp4", "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "1000000"]);
    for (const [id, bytes, type, size] of [
      ["valid-webm", noise, "audio/webm", 100_000],
      ["valid-webm-odd", noise, "audio/webm", 333_333],
      ["valid-ogg", ogg, "audio/ogg", 150_000],
      ["valid-mp4", mp4, "audio/mp4", 120_000],
    ] as const) {
      assert.ok(bytes.length > 2 * UNFINISHED_TAIL_MAX_BYTES, `${id}: ${bytes.length} bytes`);
      for (let offset = 0; offset < bytes.length; offset += size) {
        const res = await append(user, id, offset, bytes.subarray(offset, offset + size), type);
        assert.ok(res.status === 200 || res.status === 201, `${id} at ${offset}: ${res.status} ${res.text}`);
      }
      assert.equal((await read(user, id)).body.bytes_received, bytes.length, id);
      await minutesAgo(user, id, 30); // out of the way of the open limit
    }
  });
});

describe("the audio quota (AUDIO_QUOTA_MB)", () => {
  test("appends past it are 413 audio_quota_exceeded; uploads that keep audio too once it is reached; without audio they go on; Settings shows it", withEnv({ AUDIO_QUOTA_MB: "0.5" }, async () => {
    const user = await createTestUser();
    const quota = 0.5 * 1024 * 1024;
    const before = await call(getSettings, { path: "/api/v1/settings", key: user.key });
    assert.deepEqual(before.body.audio_storage, { used_bytes: 0, quota_bytes: quota });

    await sendAll(user, "quota", noise.subarray(0, 400_000), 200_000);
    const over = await append(user, "quota", 400_000, noise.subarray(400_000, 600_000));
    assert.equal(over.status, 413, over.text);
    assert.equal(over.body.error.code, "audio_quota_exceeded");
    assert.match(over.body.error.message, /0\.4 MB.*0\.5 MB/);
    assert.equal((await read(user, "quota")).body.bytes_received, 400_000, "none of it kept");
    // What still fits is taken.
    assert.equal((await append(user, "quota", 400_000, noise.subarray(400_000, 500_000))).status, 200);
    const during = await call(getSettings, { path: "/api/v1/settings", key: user.key });
    assert.deepEqual(during.body.audio_storage, { used_bytes: 500_000, quota_bytes: quota });

    // Kept recordings count once the live one is gone (here: filled up with kept audio).
    const prisma = await db();
    await prisma.liveRecording.deleteMany({ where: { userId: user.id } });
    const upload = (fields: Record<string, string>) => {
      const body = new FormData();
      body.set("audio", new Blob([new Uint8Array(speech)], { type: "audio/webm" }), "jfk.webm");
      for (const [k, v] of Object.entries(fields)) body.set(k, v);
      return call(transcribe, { method: "POST", path: "/transcribe", key: user.key, body });
    };
    const first = await upload({});
    assert.equal(first.status, 200, first.text);
    await prisma.$executeRaw`UPDATE transcriptions SET audio_bytes = ${quota} WHERE id = ${first.body.id}`;
    const refused = await upload({});
    assert.equal(refused.status, 413, refused.text);
    assert.equal(refused.body.error.code, "audio_quota_exceeded");
    const withoutAudio = await upload({ keep_audio: "false" });
    assert.equal(withoutAudio.status, 200, withoutAudio.text);
    assert.equal((await append(user, "after", 0, speech.subarray(0, 3000))).body.error?.code, "audio_quota_exceeded");
    assert.deepEqual((await call(getSettings, { path: "/api/v1/settings", key: user.key })).body.audio_storage, { used_bytes: quota, quota_bytes: quota });
  }));

  test("unset: no quota, and Settings says so", async () => {
    const user = await createTestUser();
    await sendAll(user, "no-quota", noise.subarray(0, 300_000), 150_000);
    const settings = await call(getSettings, { path: "/api/v1/settings", key: user.key });
    assert.deepEqual(settings.body.audio_storage, { used_bytes: 300_000, quota_bytes: null });
  });
});
