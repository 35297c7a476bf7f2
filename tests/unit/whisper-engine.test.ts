import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFile, mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { EngineBusyError, EngineUnavailableError } from "@/lib/transcription/recognizers/types.ts";
import { PROMPT_MAX_TOKENS, readWavPcm, trimPrompt, WhisperEngine } from "@/lib/transcription/recognizers/whisper.ts";

// whisper.cpp's CI model: the real tiny.en header and vocabulary, no weights. whisper.cpp loads it
// and runs the whole encode/decode path, which yields no text.
const TEST_MODEL = path.resolve(import.meta.dirname, "../fixtures/for-tests-ggml-tiny.en.bin");
const JFK_WAV = path.resolve(import.meta.dirname, "../fixtures/jfk.wav");
const JFK = { wavPath: JFK_WAV, durationSec: 11 };

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "vd-whisper-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const engines: WhisperEngine[] = [];
function engine(modelPath = TEST_MODEL, maxQueue?: number): WhisperEngine {
  const created = new WhisperEngine({ modelPath, maxQueue, threads: 2 });
  engines.push(created);
  return created;
}
after(async () => {
  await Promise.all(engines.map((e) => e.close()));
});

describe("WhisperEngine with whisper.cpp's test model", () => {
  test("recognizes a WAV: a Recognition from the whisper engine, empty text with this model", async () => {
    const whisper = engine();
    const result = await whisper.recognize({ ...JFK, prompt: "Ask not what your country can do for you" });
    assert.equal(result.engine, "whisper");
    assert.equal(typeof result.text, "string");
    assert.equal(result.text, "");
    assert.deepEqual(result.segments, []);
    assert.equal(result.language, "en");
    assert.equal(result.model, "for-tests-ggml-tiny.en");
  });

  test("loads the model once and reuses it: later calls neither reload nor reread the file", async () => {
    const model = path.join(dir, "ggml-tiny.en.bin");
    await copyFile(TEST_MODEL, model);
    const whisper = engine(model);
    assert.equal(whisper.loads, 0, "loading is lazy");
    await whisper.recognize(JFK);
    assert.equal(whisper.loads, 1);
    await rm(model); // a reload would now fail
    const pcm = await readWavPcm(JFK_WAV);
    const second = await whisper.recognize({ ...JFK, pcm });
    assert.equal(second.engine, "whisper");
    assert.equal(whisper.loads, 1);
  });

  test("load() loads ahead of the first call", async () => {
    const whisper = engine();
    await whisper.load();
    assert.equal(whisper.loads, 1);
    await whisper.recognize(JFK);
    assert.equal(whisper.loads, 1);
  });

  test("runs one call at a time and refuses more than maxQueue waiting with EngineBusyError", async () => {
    const whisper = engine(TEST_MODEL, 1);
    const first = whisper.recognize(JFK);
    const second = whisper.recognize(JFK);
    assert.deepEqual(whisper.queue, { running: 1, waiting: 1 });
    await assert.rejects(
      whisper.recognize(JFK),
      (err: unknown) => err instanceof EngineBusyError && Number.isInteger(err.retryAfterSeconds) && err.retryAfterSeconds >= 1,
    );
    const results = await Promise.all([first, second]);
    assert.deepEqual(results.map((r) => r.engine), ["whisper", "whisper"]);
    assert.deepEqual(whisper.queue, { running: 0, waiting: 0 });
    assert.equal(whisper.loads, 1);
  });

  test("a waiting call whose signal aborts leaves the queue at once", async () => {
    const whisper = engine(TEST_MODEL, 1);
    const first = whisper.recognize(JFK);
    const controller = new AbortController();
    const second = whisper.recognize({ ...JFK, signal: controller.signal });
    controller.abort();
    await assert.rejects(second, { name: "AbortError" });
    assert.deepEqual(whisper.queue, { running: 1, waiting: 0 });
    await first;
  });

  test("a running call whose signal aborts is answered at once; its slot frees when whisper ends", async () => {
    const whisper = engine(TEST_MODEL, 1);
    await whisper.load();
    const controller = new AbortController();
    const running = whisper.recognize({ ...JFK, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await assert.rejects(running, { name: "AbortError" });
    assert.ok(Date.now() - started < 1_000, "not after the whole run");
    assert.deepEqual(whisper.queue, { running: 1, waiting: 0 });
    assert.equal((await whisper.recognize(JFK)).engine, "whisper");
  });

  test("close() refuses further calls", async () => {
    const whisper = engine();
    await whisper.close();
    await assert.rejects(whisper.recognize(JFK), EngineUnavailableError);
  });
});

describe("WhisperEngine without a usable model", () => {
  const helpful = (err: unknown) =>
    err instanceof EngineUnavailableError &&
    err.message.includes("npm run model:download -- base.en") &&
    err.message.includes("WHISPER_MODEL");

  test("a missing model file is EngineUnavailableError saying how to get one", async () => {
    const whisper = engine(path.join(dir, "ggml-base.en.bin"));
    await assert.rejects(whisper.recognize(JFK), (err: unknown) => helpful(err) && /does not exist/.test((err as Error).message));
    assert.equal(whisper.loads, 0);
  });

  test("a truncated or foreign file is EngineUnavailableError too, not a crash", async () => {
    const cut = path.join(dir, "ggml-cut.bin");
    await copyFile(TEST_MODEL, cut);
    await truncate(cut, 4096);
    await assert.rejects(engine(cut).recognize(JFK), (err: unknown) => helpful(err) && /truncated/.test((err as Error).message));
    const page = path.join(dir, "ggml-page.bin");
    await writeFile(page, "<html>Repository not found</html>");
    await assert.rejects(engine(page).load(), helpful);
  });

  test("the model is looked for again on the next call, so installing one later works", async () => {
    const later = path.join(dir, "ggml-later.bin");
    const whisper = engine(later);
    await assert.rejects(whisper.recognize(JFK), EngineUnavailableError);
    await copyFile(TEST_MODEL, later);
    assert.equal((await whisper.recognize(JFK)).engine, "whisper");
    assert.equal(whisper.loads, 1);
  });
});

describe("trimPrompt", () => {
  test("leaves a short prompt alone", () => {
    assert.equal(trimPrompt("  Kubernetes, Grafana  and Loki "), "Kubernetes, Grafana and Loki");
  });

  test("cuts a long prompt at a word boundary within the budget, keeping its start", () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`);
    const trimmed = trimPrompt(words.join(" "));
    const kept = trimmed.split(" ");
    assert.ok(kept.length < words.length);
    assert.deepEqual(kept, words.slice(0, kept.length));
    const estimate = kept.reduce((sum, w) => sum + Math.ceil(w.length / 3), 0);
    assert.ok(estimate <= PROMPT_MAX_TOKENS, `estimated ${estimate} tokens`);
    assert.ok(estimate > PROMPT_MAX_TOKENS - 3, "uses the budget");
  });
});

describe("readWavPcm", () => {
  test("reads 16 kHz mono 16-bit samples as floats in [-1, 1]", async () => {
    const pcm = await readWavPcm(JFK_WAV);
    assert.ok(Math.abs(pcm.length / 16_000 - 11) < 0.1, `${pcm.length} samples`);
    let peak = 0;
    for (const s of pcm) peak = Math.max(peak, Math.abs(s));
    assert.ok(peak > 0.1 && peak <= 1, `peak ${peak}`);
  });

  test("refuses another sample rate", async () => {
    const header = Buffer.alloc(44);
    header.write("RIFF", 0, "ascii");
    header.writeUInt32LE(36 + 4, 4);
    header.write("WAVEfmt ", 8, "ascii");
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20); // PCM
    header.writeUInt16LE(1, 22); // mono
    header.writeUInt32LE(8_000, 24);
    header.writeUInt32LE(16_000, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write("data", 36, "ascii");
    header.writeUInt32LE(4, 40);
    const wav = path.join(dir, "8k.wav");
    await writeFile(wav, Buffer.concat([header, Buffer.alloc(4)]));
    await assert.rejects(readWavPcm(wav), /not 16 kHz mono 16-bit PCM/);
  });
});
