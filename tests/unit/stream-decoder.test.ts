import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { openStreamDecoder } from "@/lib/transcription/audio/stream-decoder.ts";

// A live recording decoded as its bytes arrive (real ffmpeg, installed by .ci/run): samples come
// out while the recording is still being written, and all of them once it ends.
const JFK_WAV = path.resolve(import.meta.dirname, "../fixtures/jfk.wav");
const exec = promisify(execFile);

let dir: string;
let webm: Buffer;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "vd-stream-decoder-test-"));
  // As MediaRecorder writes it: WebM/Opus with no duration in the header.
  const out = path.join(dir, "jfk.webm");
  await exec("ffmpeg", ["-v", "error", "-i", JFK_WAV, "-c:a", "libopus", "-b:a", "32k", "-f", "webm", "-live", "1", out]);
  webm = await readFile(out);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(ok(), what);
};

describe("openStreamDecoder", () => {
  test("hands over the samples of each part as it arrives, in order, and every one at the end", async () => {
    const blocks: Buffer[] = [];
    const decoder = openStreamDecoder({ ffmpeg: "ffmpeg", format: "webm", urgency: "live", onSamples: (pcm) => blocks.push(pcm) });
    const half = Math.floor(webm.length / 2);
    decoder.write(webm.subarray(0, half));
    // The first half's samples, before the rest is written: about 5 of the 11 s.
    await until("samples of the first half", () => decoder.decodedSeconds() > 4);
    assert.ok(decoder.decodedSeconds() < 6.5, `no more than the first half: ${decoder.decodedSeconds()} s`);
    decoder.write(webm.subarray(half));
    await decoder.end();
    assert.ok(Math.abs(decoder.decodedSeconds() - 11) < 0.05, `all 11 s: ${decoder.decodedSeconds()}`);
    const pcm = Buffer.concat(blocks);
    assert.equal(pcm.length, decoder.decodedSeconds() * 32_000);
    assert.ok(blocks.every((block) => block.length % 2 === 0), "whole samples only");
    // The same samples as decoding the finished file whole.
    const whole = await exec("ffmpeg", ["-v", "error", "-i", path.join(dir, "jfk.webm"), "-ac", "1", "-ar", "16000", "-f", "s16le", "-"], { encoding: "buffer", maxBuffer: 1 << 24 });
    assert.equal(pcm.length, whole.stdout.length);
    assert.ok(pcm.equals(whole.stdout));
  });

  test("bytes that are not the format end it with an error; writes after it failed are dropped", async () => {
    const decoder = openStreamDecoder({ ffmpeg: "ffmpeg", format: "webm", urgency: "live", onSamples: () => undefined });
    decoder.write(Buffer.from("this is not a webm file, only words".repeat(100)));
    await assert.rejects(decoder.end(), /ffmpeg could not decode/);
    decoder.write(webm.subarray(0, 100));
    assert.equal(decoder.decodedSeconds(), 0);
  });

  test("close stops it at once", async () => {
    const decoder = openStreamDecoder({ ffmpeg: "ffmpeg", format: "webm", urgency: "live", onSamples: () => undefined });
    decoder.write(webm.subarray(0, 1000));
    decoder.close();
    await assert.rejects(decoder.end());
  });

  test("ffmpeg missing: end rejects, naming it", async () => {
    const decoder = openStreamDecoder({ ffmpeg: "/nonexistent/ffmpeg", format: "wav", urgency: "live", onSamples: () => undefined });
    decoder.write(webm.subarray(0, 10));
    await assert.rejects(decoder.end(), /ENOENT/);
  });
});
