import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import OpenAI from "openai";
import { GET as getTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { POST as openAiTranscribe } from "@/app/v1/audio/transcriptions/route.ts";
import { resetRecognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { CUE_LINE_MAX } from "@/lib/transcription/upload/format-result.ts";
import { db } from "@/lib/db/client.ts";
import { JFK_WAV } from "../support/audio.ts";
import { setUpTestDatabase, testDbKind } from "../support/database.ts";
import { createTestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";
import { startRouteServer } from "../support/processes.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
const database = setUpTestDatabase();
// Word timings do not depend on the database: run them in the PGlite pass only.
const once = { skip: testDbKind === "postgres" ? "database-independent; runs in the PGlite pass" : false };

type Word = { word: string; start: number; end: number };
type Segment = { start: number; end: number; text: string };

let key: string;
let userId: string;
let jfk: Buffer;
before(async () => {
  if (once.skip) return;
  await database.ready;
  ({ key, id: userId } = await createTestUser());
  jfk = await readFile(JFK_WAV);
});
after(async () => {
  await resetRecognitionEngine();
});

/** A form with the recording and fields; an array value is sent as a repeated field. */
function form(fields: Record<string, string | string[]>, fileField = "audio") {
  const body = new FormData();
  body.set(fileField, new Blob([new Uint8Array(jfk)]), "jfk.wav");
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  return body;
}
/**
 * Each upload is heard afresh: the tests compare the words of uploads of the same speech, and a
 * person's kept voice (their speaker profile) would let the second hear it better than the first.
 */
async function post(fields: Record<string, string | string[]>) {
  await (await db()).speakerProfile.deleteMany({ where: { userId } });
  return call(transcribe, { method: "POST", path: "/transcribe", key, body: form(fields) });
}

/** Words in order, each inside one segment (segments in order), all within the recording. */
function assertWellTimed(words: Word[], segments: Segment[], duration: number) {
  assert.ok(words.length >= 5, `${words.length} words`);
  let segment = 0;
  for (const [i, word] of words.entries()) {
    assert.ok(word.word.trim() === word.word && word.word, `a word: ${JSON.stringify(word)}`);
    assert.ok(word.start >= 0 && word.end >= word.start && word.end <= duration + 0.01, `within the recording: ${JSON.stringify(word)}`);
    if (i) assert.ok(word.start >= words[i - 1].end, `monotonic: ${JSON.stringify([words[i - 1], word])}`);
    while (segment < segments.length && word.start >= segments[segment].end) segment++;
    assert.ok(segment < segments.length, `${word.word} at ${word.start} is in a segment`);
    assert.ok(word.start >= segments[segment].start && word.end <= segments[segment].end, `${JSON.stringify(word)} inside ${JSON.stringify(segments[segment])}`);
  }
}

describe("word timings on POST /transcribe (PocketSphinx, real speech)", once, () => {
  let words: Word[];

  test("verbose_json with timestamp_granularities[]=word (repeated with segment) has top-level words, well timed", async () => {
    const res = await post({ response_format: "verbose_json", "timestamp_granularities[]": ["word", "segment"] });
    assert.equal(res.status, 200, res.text);
    words = res.body.words;
    assertWellTimed(words, res.body.segments, res.body.duration);
    assert.equal(words.map((w) => w.word).join(" "), res.body.text, "the words are the text");
    for (const s of res.body.segments) assert.deepEqual(Object.keys(s).sort(), ["end", "start", "text"]);

    const stored = await call(getTranscription, { path: `/api/v1/transcriptions/${res.body.id}`, key, params: { id: res.body.id } });
    assert.equal(stored.status, 200);
    assert.deepEqual(stored.body.words, words, "GET returns the stored words");
  });

  test("without word, verbose_json has no words; timestamp_granularities works too, comma-separated", async () => {
    const segmentOnly = await post({ response_format: "verbose_json", "timestamp_granularities[]": "segment" });
    assert.equal(segmentOnly.status, 200, segmentOnly.text);
    assert.equal(segmentOnly.body.words, undefined);
    assert.ok(segmentOnly.body.segments.length >= 2);
    const plain = await post({ response_format: "verbose_json", timestamp_granularities: "segment,word" });
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual(plain.body.words, words);
  });

  test("a dictionary replacement is one word spanning the words it replaced", async () => {
    // Two neighbouring words of one utterance, as PocketSphinx heard them.
    const i = words.findIndex((w, n) => n + 1 < words.length && words[n + 1].start - w.end < 0.2 && w.word !== words[n + 1].word);
    assert.ok(i >= 0);
    const [first, second] = [words[i], words[i + 1]];
    const res = await post({
      response_format: "verbose_json",
      "timestamp_granularities[]": "word",
      dict: JSON.stringify([{ misspelling: `${first.word} ${second.word}`, correct_spelling: "Kubernetes" }]),
    });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.dictionary_replacements >= 1);
    const replaced = (res.body.words as Word[]).filter((w) => w.word === "Kubernetes");
    assert.ok(replaced.some((w) => w.start === first.start && w.end === second.end), JSON.stringify(replaced));
    assert.equal(res.body.words.length, words.length - replaced.length, "each replacement took two words' place");
    assertWellTimed(res.body.words, res.body.segments, res.body.duration);
  });

  test("timestamp_granularities with another format is 400 validation_failed saying so; unknown values too", async () => {
    const cases: Record<string, string | string[]>[] = [
      { "timestamp_granularities[]": "word" },
      { response_format: "srt", timestamp_granularities: "word" },
      { response_format: "verbose_json", "timestamp_granularities[]": ["word", "syllable"] },
    ];
    for (const fields of cases) {
      const res = await post(fields);
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal(res.body.error.code, "validation_failed");
      assert.match(JSON.stringify(res.body.error.details), /verbose_json|word or segment/);
    }
  });

  test("the repeatable field stays inside the hostile-input checks: NUL, too many repeats, other fields still once", async () => {
    const nul = await post({ response_format: "verbose_json", "timestamp_granularities[]": ["word", "se\0gment"] });
    assert.equal(nul.status, 400);
    assert.match(nul.body.error.message, /NUL/);
    const many = await post({ response_format: "verbose_json", "timestamp_granularities[]": Array(20).fill("word") });
    assert.equal(many.status, 400);
    assert.match(many.body.error.message, /too many/);
    const twice = await post({ response_format: "verbose_json", timestamp_granularities: ["word", "segment"] });
    assert.equal(twice.status, 400);
    assert.match(twice.body.error.message, /more than once/);
  });

  test("srt cues have at most two lines of at most 42 characters, in time order", async () => {
    const res = await post({ response_format: "srt" });
    assert.equal(res.status, 200);
    const cues = res.text.trim().split(/\n\n/);
    assert.ok(cues.length >= 2);
    let previousEnd = "";
    for (const cue of cues) {
      const [, times, ...lines] = cue.split("\n");
      assert.ok(lines.length >= 1 && lines.length <= 2, cue);
      for (const line of lines) assert.ok(line.length <= CUE_LINE_MAX, line);
      const [start, end] = times.split(" --> ");
      assert.ok(start <= end && start >= previousEnd, cue);
      previousEnd = end;
    }
  });
});

describe("word timings on POST /v1/audio/transcriptions", once, () => {
  test("the route takes OpenAI's repeated timestamp_granularities[] field", async () => {
    const res = await call(openAiTranscribe, {
      method: "POST",
      path: "/v1/audio/transcriptions",
      key,
      body: form({ model: "whisper-1", response_format: "verbose_json", "timestamp_granularities[]": ["word", "segment"] }, "file"),
    });
    assert.equal(res.status, 200, res.text);
    assertWellTimed(res.body.words, res.body.segments, res.body.duration);
  });

  test("the official openai SDK's verbose_json with timestamp_granularities returns words", async () => {
    const peer = await startRouteServer({ DATABASE_URL: database.url(), TRANSCRIBE_ENGINE: "pocketsphinx" });
    try {
      const client = new OpenAI({ apiKey: key, baseURL: `${peer.url}/v1`, maxRetries: 0 });
      const verbose = await client.audio.transcriptions.create({
        file: createReadStream(JFK_WAV),
        model: "whisper-1",
        response_format: "verbose_json",
        timestamp_granularities: ["word", "segment"],
      });
      assert.ok(verbose.words && verbose.segments);
      assertWellTimed(verbose.words, verbose.segments, verbose.duration);
      assert.match(verbose.words.map((w) => w.word).join(" "), /\bcountry\b/);
    } finally {
      await peer.stop();
    }
  });
});
