import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ApiError } from "@/lib/http/errors.ts";
import { analyzeSpeech, detectSpeech, readWavPcm, speechProbabilities, spansFromProbabilities } from "@/lib/transcription/audio/vad.ts";
import { JFK_WAV } from "../support/audio.ts";

// The real Silero model on audio made here: espeak-ng speech, sox silence, noise and tones.
const exec = promisify(execFile);
const dir = await mkdtemp(path.join(tmpdir(), "vd-vad-"));
after(() => rm(dir, { recursive: true, force: true }));

const SOX_OUT = ["-r", "16000", "-c", "1", "-b", "16"];
async function sox(name: string, ...args: string[]): Promise<string> {
  const out = path.join(dir, name);
  await exec("sox", [...args.slice(0, args.indexOf("@out")), ...SOX_OUT, out, ...args.slice(args.indexOf("@out") + 1)]);
  return out;
}
async function speak(name: string, text: string): Promise<string> {
  const raw = path.join(dir, `${name}-22k.wav`);
  await exec("espeak-ng", ["-w", raw, text]);
  return sox(`${name}.wav`, raw, "@out");
}
async function seconds(wav: string): Promise<number> {
  return Number((await exec("soxi", ["-D", wav])).stdout);
}
const silence = (name: string, s: number) => sox(name, "-n", "@out", "trim", "0", String(s));

// 1 s silence, a sentence, 5 s silence, a sentence, 1 s silence.
const first = await speak("first", "The quick brown fox jumps over the lazy dog. Voice notes become posts.");
const second = await speak("second", "After a long pause, the speaker continues with a second sentence about the weather.");
const firstLength = await seconds(first);
const secondLength = await seconds(second);
const oneSecond = await silence("one.wav", 1);
const fiveSeconds = await silence("five.wav", 5);
const pause = await sox("pause.wav", oneSecond, first, fiveSeconds, second, oneSecond, "@out");
const pauseLength = await seconds(pause);
const secondStart = 1 + firstLength + 5;

test("speech with a 5 s pause: two spans, roughly where espeak-ng spoke, the pause between them", async () => {
  const spans = await detectSpeech(await readWavPcm(pause));
  assert.equal(spans.length, 2, JSON.stringify(spans));
  const [a, b] = spans;
  // espeak-ng's files carry a little silence of their own at either end, so the spans sit inside.
  assert.ok(a.start >= 0.9 && a.start < 1.4, `first starts at ${a.start}`);
  assert.ok(a.end > 1 + firstLength - 0.8 && a.end <= 1 + firstLength + 0.1, `first ends at ${a.end} (sentence ends ${1 + firstLength})`);
  assert.ok(b.start >= secondStart - 0.1 && b.start < secondStart + 0.6, `second starts at ${b.start} (sentence at ${secondStart})`);
  assert.ok(b.end > secondStart + secondLength - 0.8 && b.end <= secondStart + secondLength + 0.1, `second ends at ${b.end}`);
  assert.ok(b.start - a.end >= 4.5, `pause of ${b.start - a.end} s`);
});

test("analyzeSpeech: the 5 s pause splits the pieces and is not recognized", async () => {
  const { spans, pieces, speechSeconds } = await analyzeSpeech(pause, pauseLength);
  assert.equal(spans.length, 2);
  assert.equal(pieces.length, 2, JSON.stringify(pieces));
  assert.ok(pieces[0].end < 1 + firstLength + 0.5 && pieces[1].start > secondStart - 0.5, JSON.stringify(pieces));
  const expected = spans.reduce((sum, s) => sum + s.end - s.start, 0);
  assert.ok(Math.abs(speechSeconds - expected) < 0.01);
  assert.ok(speechSeconds < pauseLength - 5);
});

test("pure silence: no speech, and analyzeSpeech says 422 no_speech", async () => {
  const quiet = await silence("ten.wav", 10);
  assert.deepEqual(await detectSpeech(await readWavPcm(quiet)), []);
  await assert.rejects(analyzeSpeech(quiet, 10), (err: unknown) => err instanceof ApiError && err.code === "no_speech");
});

test("white, pink and brown noise (RMS about -30, -28 and -16 dBFS) hold no speech", async () => {
  for (const [name, kind, volume] of [
    ["white.wav", "whitenoise", "0.1"],
    ["pink.wav", "pinknoise", "0.2"],
    ["brown.wav", "brownnoise", "0.3"],
  ]) {
    const noise = await sox(name, "-n", "@out", "synth", "20", kind, "vol", volume);
    assert.deepEqual(await detectSpeech(await readWavPcm(noise)), [], name);
    await assert.rejects(analyzeSpeech(noise, 20), (err: unknown) => err instanceof ApiError && err.code === "no_speech", name);
  }
});

test("music-like tones (a plucked scale, a held chord) hold no speech", async () => {
  const notes: string[] = [];
  for (const hz of [440, 494, 523, 587, 659, 698, 784, 880]) notes.push(await sox(`n${hz}.wav`, "-n", "@out", "synth", "0.4", "pluck", String(hz), "vol", "0.5"));
  const scale = await sox("scale.wav", ...notes, ...notes.slice().reverse(), ...notes, "@out");
  assert.deepEqual(await detectSpeech(await readWavPcm(scale)), []);
  const chord = await sox("chord.wav", "-n", "@out", "synth", "10", "sine", "220", "sine", "277", "sine", "330", "vol", "0.3", "remix", "-");
  assert.deepEqual(await detectSpeech(await readWavPcm(chord)), []);
});

test("real speech under pink noise is still speech", async () => {
  const noise = await sox("pink-11.wav", "-n", "@out", "synth", "11", "pinknoise", "vol", "0.2");
  const noisy = await sox("jfk-noisy.wav", "-m", JFK_WAV, noise, "@out");
  const spans = await detectSpeech(await readWavPcm(noisy));
  const speech = spans.reduce((sum, s) => sum + s.end - s.start, 0);
  assert.ok(spans.length >= 2 && speech > 6, JSON.stringify(spans));
});

test("quiet speech (the JFK sample 40 dB down, about −57 dBFS) is found whole; quiet noise stays noise", async () => {
  const quiet = await sox("jfk-quiet.wav", JFK_WAV, "@out", "vol", "0.01");
  const spans = await detectSpeech(await readWavPcm(quiet));
  const speech = spans.reduce((sum, s) => sum + s.end - s.start, 0);
  // At full level: four phrases, about 7.9 s of speech. Unamplified, the model heard only two.
  assert.equal(spans.length, 4, JSON.stringify(spans));
  assert.ok(speech > 7, `${speech} s`);
  const hiss = await sox("hiss.wav", "-n", "@out", "synth", "10", "pinknoise", "vol", "0.01");
  assert.deepEqual(await detectSpeech(await readWavPcm(hiss)), []);
});

test("long audio scored in parallel lanes finds the same speech as one lane", async () => {
  // The JFK sample eight times over with 3 s gaps (about 1 min 50 s): several lanes.
  const gap = await silence("gap.wav", 3);
  const parts = Array.from({ length: 8 }, () => [JFK_WAV, gap]).flat();
  const long = await sox("jfk-long.wav", ...parts, "@out");
  const pcm = await readWavPcm(long);
  const laned = await speechProbabilities(pcm);
  const single = await speechProbabilities(pcm, { maxLanes: 1 });
  assert.equal(laned.length, single.length);
  // The model's state remembers far back, so a lane that starts fresh (after 1 s of warm-up)
  // scores a few frames differently from one that heard everything before; the speech found
  // is the same, its ends within the model's own hangover (measured: up to 0.4 s).
  let differing = 0;
  for (let i = 0; i < laned.length; i++) if (Math.abs(laned[i] - single[i]) > 0.1) differing++;
  assert.ok(differing / laned.length < 0.05, `${differing} of ${laned.length} frames differ`);
  const a = spansFromProbabilities(laned, pcm.length / 16000);
  const b = spansFromProbabilities(single, pcm.length / 16000);
  assert.equal(a.length, b.length);
  a.forEach((s, i) => assert.ok(Math.abs(s.start - b[i].start) < 0.1 && Math.abs(s.end - b[i].end) < 0.5, `${JSON.stringify(s)} vs ${JSON.stringify(b[i])}`));
  // Every repetition is found: 8 × 4 phrases, give or take one merged or split.
  assert.ok(a.length >= 28 && a.length <= 36, `${a.length} spans`);
});

test("readWavPcm: every sample, scaled to [-1, 1); a WAV not 16 kHz mono 16-bit is refused", async () => {
  const pcm = await readWavPcm(JFK_WAV);
  assert.equal(pcm.length, Math.round((await seconds(JFK_WAV)) * 16000));
  let peak = 0;
  for (const s of pcm) peak = Math.max(peak, Math.abs(s));
  assert.ok(peak > 0.3 && peak <= 1, `peak ${peak}`);
  // The same samples as sox reads them (its raw 16-bit output, scaled the same way).
  const raw = await exec("sox", [JFK_WAV, "-t", "s16", "-"], { encoding: "buffer", maxBuffer: 1 << 24 });
  for (const i of [0, 1000, 50_000, pcm.length - 1]) assert.equal(pcm[i], raw.stdout.readInt16LE(i * 2) / 32768);
  const stereo = path.join(dir, "stereo.wav");
  await exec("sox", [JFK_WAV, "-r", "16000", "-c", "2", "-b", "16", stereo]);
  await assert.rejects(readWavPcm(stereo), /16 kHz mono 16-bit/);
  await assert.rejects(detectSpeech(new Float32Array(16000), 8000 as 16000), RangeError);
});
