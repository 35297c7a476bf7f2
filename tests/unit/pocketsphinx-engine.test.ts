import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { measureWav } from "@/lib/transcription/audio/decode-audio.ts";
import { pieceWav } from "@/lib/transcription/recognition/recognize-pieces-audio.ts";
import { finalCepstralMean, parseGuess, PocketsphinxEngine } from "@/lib/transcription/recognizers/pocketsphinx.ts";
import { buildSphinxStream } from "@/scripts/build-sphinx-stream.mjs";

// Debian's PocketSphinx (installed by .ci/run) on the shipped speech, and a stand-in binary that
// shows what the engine hands it.
const MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";
const JFK_WAV = path.resolve(import.meta.dirname, "../fixtures/jfk.wav");
// Where PocketSphinx's live CMN ended on the whole of jfk.wav.
const JFK_MEAN = [61.53, 20.65, -30.3, 13.91, -19.25, -3.48, -14.11, -2.33, 3.71, 2.45, 3.9, 5.81, -2.19];

let dir: string;
let clip: { wavPath: string; durationSec: number };
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "vd-sphinx-test-"));
  // "And so my fellow Americans": the first 3 s, as a recording's first piece.
  const { dataOffset } = await measureWav(JFK_WAV);
  clip = { wavPath: path.join(dir, "clip.wav"), durationSec: 3 };
  await writeFile(clip.wavPath, await pieceWav(JFK_WAV, dataOffset, { start: 0, end: 3 }));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sphinx = (binary = "pocketsphinx_continuous") => new PocketsphinxEngine({ binary, modelDir: MODEL_DIR, maxQueue: 4 });

describe("PocketsphinxEngine: a piece starts from the speaker's cepstral mean", () => {
  test("a recognition reports where the mean ended; a piece started there hears the first words the model alone misses", async () => {
    const engine = sphinx();
    const alone = await engine.recognize(clip);
    assert.equal(alone.cepstralMean?.length, 13, "13 cepstra");
    assert.ok(alone.cepstralMean.every(Number.isFinite));
    // From the model's generic mean the first words come out wrong ("and then our my arm arrow").
    assert.doesNotMatch(alone.text, /fellow americans/);
    const carried = await engine.recognize({ ...clip, cepstralMean: JFK_MEAN });
    assert.match(carried.text, /fellow americans/);
  });

  test("the mean goes in a copy of the model's feat.params (which outranks -cmninit), the rest of it kept", async () => {
    const seen = path.join(dir, "seen");
    const binary = path.join(dir, "fake-sphinx.sh");
    // Writes its arguments and the feature parameters it was given, then logs as PocketSphinx does.
    await writeFile(
      binary,
      [
        "#!/bin/sh",
        `printf '%s\\n' "$@" > ${seen}.args`,
        'while [ $# -gt 0 ]; do case "$1" in -featparams) cp "$2" ' + seen + '.params;; -logfn) log="$2";; esac; shift; done',
        'printf "INFO: cmn_live.c(138): Update to   < 1.00 2.00 3.00 4.00 5.00 6.00 7.00 8.00 9.00 10.00 11.00 12.00 13.00 >\\n" > "$log"',
        "echo 'hello 0.10 0.50 1.000'",
      ].join("\n"),
    );
    await chmod(binary, 0o755);
    const result = await sphinx(binary).recognize({ ...clip, cepstralMean: JFK_MEAN });
    assert.deepEqual(result.cepstralMean, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const params = (await readFile(`${seen}.params`, "utf8")).split("\n");
    assert.deepEqual(params.filter((l) => l.startsWith("-cmninit")), [`-cmninit ${JFK_MEAN.map((x) => x.toFixed(2)).join(",")}`]);
    const model = (await readFile(path.join(MODEL_DIR, "en-us", "feat.params"), "utf8")).split("\n").filter((l) => l.trim() && !l.startsWith("-cmninit"));
    assert.deepEqual(params.filter((l) => l.trim() && !l.startsWith("-cmninit")), model);

    await rm(`${seen}.params`);
    await sphinx(binary).recognize({ ...clip, cepstralMean: [1, 2, 3] });
    assert.ok(!(await readFile(`${seen}.args`, "utf8")).includes("-featparams"), "a mean of the wrong shape is not passed");
  });

  test("a failure's message carries PocketSphinx's error lines", async () => {
    const binary = path.join(dir, "failing-sphinx.sh");
    await writeFile(
      binary,
      ["#!/bin/sh", 'while [ $# -gt 0 ]; do case "$1" in -logfn) log="$2";; esac; shift; done', 'echo "INFO: ok\\nERROR: \\"acmod.c\\", line 83: Folder does not exist" > "$log"', "exit 1"].join("\n"),
    );
    await chmod(binary, 0o755);
    await assert.rejects(sphinx(binary).recognize(clip), /pocketsphinx exited with 1: ERROR: "acmod.c", line 83: Folder does not exist/);
  });

  test("finalCepstralMean reads the last update of the log, and nothing from a log without one", () => {
    const log = [
      "INFO: cmn_live.c(120): Update from < 41.00 -5.29 -0.12 5.09 2.48 -4.07 -1.37 -1.78 -5.08 -2.05 -6.45 -1.42 1.17 >",
      "INFO: cmn_live.c(138): Update to   < 63.64 12.31 -18.85 2.72 -7.85 -11.93 -8.64 -5.98 5.34 0.57 3.85 5.56 -2.49 >",
      "INFO: cmn_live.c(138): Update to   < 64.48 12.25 -19.27 2.77 -9.53 -12.15 -8.16 -6.75 5.93 1.38 4.73 6.49 -2.14 >",
    ].join("\n");
    assert.deepEqual(finalCepstralMean(log), [64.48, 12.25, -19.27, 2.77, -9.53, -12.15, -8.16, -6.75, 5.93, 1.38, 4.73, 6.49, -2.14]);
    assert.equal(finalCepstralMean("INFO: nothing here"), undefined);
    assert.equal(finalCepstralMean("INFO: cmn_live.c(138): Update to   < 1 2 nan >"), undefined);
  });
});

describe("PocketsphinxEngine.openStream: audio heard as it arrives", () => {
  test("each phrase is heard once its pause arrives, before the audio ends; end() hears the last one", async () => {
    const { dataOffset, durationSec } = await measureWav(JFK_WAV);
    const samples = (await readFile(JFK_WAV)).subarray(dataOffset);
    const stream = await sphinx().openStream();
    assert.ok(stream, "a stream opens where the model is installed");
    // The first 5 s: "and so my fellow americans … ask not", with the pause after "ask not" (4.3–5.3 s).
    stream.write(samples.subarray(0, 5 * 32_000));
    const deadline = Date.now() + 20_000;
    while (!stream.segments().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const early = stream.segments().length;
    assert.ok(early >= 1, "a phrase is heard before the rest of the audio is written");
    stream.write(samples.subarray(5 * 32_000));
    const all = await stream.end();
    assert.ok(all.length > early, `the rest is heard at the end: ${JSON.stringify(all.map((s) => s.text))}`);
    const words = all.flatMap((s) => s.words ?? []);
    // In the recording's time, increasing, within it.
    assert.deepEqual(words.map((w) => w.start), [...words.map((w) => w.start)].sort((a, b) => a - b));
    assert.ok(words.at(-1)!.end <= durationSec + 0.05 && words[0].start >= 0);
    assert.match(all.map((s) => s.text).join(" "), /country/);
    assert.ok(words.every((w) => !/^[<[]|\(\d+\)$/.test(w.word)), "fillers and variant marks are left out");
  });

  test("close() stops it at once; no stream without the model", async () => {
    const stream = (await sphinx().openStream())!;
    stream.write(Buffer.alloc(32_000));
    stream.close();
    assert.deepEqual(await stream.end(), []);
    assert.equal(await new PocketsphinxEngine({ binary: "pocketsphinx_continuous", modelDir: dir, maxQueue: 1 }).openStream(), null);
  });

  test("a stream that fails says so at its end; one started from the speaker's mean is given it", async () => {
    const failing = await sphinx(path.join(dir, "no-such-binary")).openStream();
    failing!.write(Buffer.alloc(32_000));
    await assert.rejects(failing!.end(), /PocketSphinx stream ended with/);

    const seen = path.join(dir, "stream-seen");
    const binary = path.join(dir, "fake-stream-sphinx.sh");
    await writeFile(
      binary,
      ["#!/bin/sh", `printf '%s\\n' "$@" > ${seen}.args`, 'while [ $# -gt 0 ]; do case "$1" in -featparams) cp "$2" ' + seen + '.params;; esac; shift; done', "cat > /dev/null"].join("\n"),
    );
    await chmod(binary, 0o755);
    const stream = (await sphinx(binary).openStream({ cepstralMean: JFK_MEAN }))!;
    stream.write(Buffer.alloc(32_000));
    assert.deepEqual(await stream.end(), []);
    const args = (await readFile(`${seen}.args`, "utf8")).split("\n");
    assert.equal(args[args.indexOf("-infile") + 1], "/dev/stdin");
    assert.match(await readFile(`${seen}.params`, "utf8"), new RegExp(`-cmninit ${JFK_MEAN[0].toFixed(2)},`));
  });
});

describe("sphinx-stream (native/sphinx-stream.c): the phrase being spoken, as it is spoken", () => {
  // .ci/run installs libpocketsphinx-dev, so CI builds it; a machine without the headers skips, saying so.
  const built = buildSphinxStream();
  const skip = built.path === null && built.reason.includes("not installed") && `sphinx-stream is not built here: ${built.reason}`;

  test("built where the library's headers are", { skip }, () => {
    assert.ok(built.path, `it builds: ${built.reason}`);
  });

  test("guesses come while a phrase is spoken; its phrases, words and times are pocketsphinx_continuous's", { skip }, async () => {
    const { dataOffset } = await measureWav(JFK_WAV);
    const samples = (await readFile(JFK_WAV)).subarray(dataOffset);
    let guesses = 0;
    const stream = (await new PocketsphinxEngine({ binary: "pocketsphinx_continuous", streamBinary: built.path, modelDir: MODEL_DIR, maxQueue: 4 }).openStream({ onGuess: () => guesses++ }))!;
    // The first 2.5 s: "and so my fellow", still speaking (the first pause is at 4.3 s).
    stream.write(samples.subarray(0, 2.5 * 32_000));
    const deadline = Date.now() + 20_000;
    while (!stream.guess?.() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const guess = stream.guess?.();
    assert.ok(guess?.text, "a guess at the phrase before its pause");
    assert.ok(guess.untilSec > 0.4 && guess.untilSec <= 2.5, `the guess says how much it heard: ${guess.untilSec}`);
    assert.equal(stream.segments().length, 0, "no phrase has ended yet");
    stream.write(samples.subarray(2.5 * 32_000));
    const phrases = await stream.end();
    assert.ok(guesses >= 2, `a guess each half second of speech: ${guesses}`);
    assert.equal(stream.guess?.(), undefined, "no guess once every phrase ended");

    const continuous = (await sphinx().openStream())!;
    continuous.write(samples);
    assert.deepEqual(phrases, await continuous.end());
  });

  test("a guess line's words: fillers left out, variants named by their word; other lines are not guesses", () => {
    assert.deepEqual(parseGuess("~partial 2.304 and(2) so [NOISE] my <sil> fellow"), { text: "and so my fellow", untilSec: 2.304 });
    assert.equal(parseGuess("and 0.290 0.530 0.367175"), null);
    assert.equal(parseGuess("and so my fellow americans"), null);
  });
});
